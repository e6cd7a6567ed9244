// Spreadsheet work off the event loop: spreadsheet_read's parsing and spreadsheet_write's checking and building run
// on a few threads (work-worker.ts) behind a fair gate (one task at a time per organization and per person,
// organizations served in turn), so one organization's flood of reads or writes neither stalls the server's other
// requests nor takes every thread. A parsed workbook comes back validated (the thread checks it against the binding's
// schema), a written one as the file's bytes, and the thread's CPU time is charged to the calling execution.
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { Workbook } from '../../bindings/spreadsheets/workbook.ts';
import { ServiceError, type ErrorCode, type Localized } from '../../errors.ts';
import { fairWorkGate, type WorkOwner } from '../host-work.ts';

import type { WriteRequest } from './write.ts';

export interface ParseRequest {
  kind: 'csv' | 'xlsx';
  bytes: Uint8Array;
  sheetName: string;
  options: { sheet?: string; maxRows?: number; maxCells: number };
}
export type WorkRequest = { id: number } & (ParseRequest | ({ kind: 'write' } & WriteRequest));
export type WorkReply =
  | { id: number; ok: true; workbook?: Workbook; bytes?: Uint8Array; cpuMs: number }
  | { id: number; ok: false; code: ErrorCode; resolution?: Localized; detail?: string; cpuMs: number };

/** Spreadsheet threads: one fewer than the cores (the event loop keeps one), at least one, at most four. */
const THREADS = Math.max(1, Math.min(4, availableParallelism() - 1));

/** A spreadsheet thread idle this long ends, giving its heap back (a flood's workbooks leave it hundreds of MB). */
const IDLE_MS = 5000;

interface Thread {
  worker: Worker;
  busy: boolean;
  idle: NodeJS.Timeout | null;
}

function workThreads(count: number) {
  const threads: Thread[] = [];
  let next = 1;
  const pending = new Map<number, { thread: Thread; resolve: (r: WorkReply) => void; reject: (e: unknown) => void }>();
  const spawn = (): Thread => {
    const thread: Thread = { worker: new Worker(new URL('./work-worker.ts', import.meta.url)), busy: false, idle: null };
    thread.worker.on('message', (reply: WorkReply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      thread.busy = false;
      thread.worker.unref();
      thread.idle = setTimeout(() => {
        retire(thread);
        void thread.worker.terminate();
      }, IDLE_MS).unref();
      p.resolve(reply);
    });
    const retire = (t: Thread) => {
      const i = threads.indexOf(t);
      if (i >= 0) threads.splice(i, 1);
    };
    const lost = (err: unknown) => {
      retire(thread);
      for (const [id, p] of pending)
        if (p.thread === thread) {
          pending.delete(id);
          p.reject(err);
        }
    };
    thread.worker.on('error', lost);
    thread.worker.on('exit', (code) => lost(new Error(`spreadsheet thread exited (${code})`)));
    thread.worker.unref();
    threads.push(thread);
    return thread;
  };
  return (req: ParseRequest | ({ kind: 'write' } & WriteRequest)): Promise<WorkReply> => {
    // The gate admits at most `count` tasks at once, so an idle thread (or room for one) is always there.
    const thread = threads.find((t) => !t.busy) ?? (threads.length < count ? spawn() : null);
    if (!thread) return Promise.reject(new Error('no idle spreadsheet thread'));
    thread.busy = true;
    if (thread.idle) {
      clearTimeout(thread.idle);
      thread.idle = null;
    }
    thread.worker.ref();
    const id = next++;
    return new Promise((resolve, reject) => {
      pending.set(id, { thread, resolve, reject });
      // A copy of the bytes (or workbook) goes to the thread (the caller's buffer may be a slice of a pooled one).
      thread.worker.postMessage({ ...req, id });
    });
  };
}

const gate = fairWorkGate(THREADS);
let threads: ReturnType<typeof workThreads> | null = null;

/** Run `req` on a spreadsheet thread as `owner`'s turn comes; `charge` receives the thread's CPU time. */
async function onThread(
  owner: WorkOwner,
  req: ParseRequest | ({ kind: 'write' } & WriteRequest),
  signal: AbortSignal | undefined,
  charge: (cpuMs: number) => void,
) {
  const reply = await gate.run(owner, () => (threads ??= workThreads(THREADS))(req), signal);
  charge(reply.cpuMs);
  if (reply.ok) return reply;
  // The thread's ServiceErrors (invalid_input naming the problem), rebuilt here.
  if (reply.resolution) throw new ServiceError(reply.code, { resolution: reply.resolution });
  throw new ServiceError(reply.code, { cause: new Error(reply.detail) });
}

/** Parse `bytes` as a workbook (validated) on a spreadsheet thread, as `owner`'s turn comes. */
export async function parseWorkbook(owner: WorkOwner, req: ParseRequest, signal: AbortSignal | undefined, charge: (cpuMs: number) => void): Promise<Workbook> {
  return (await onThread(owner, req, signal, charge)).workbook!;
}

/** Check a caller's workbook and build its CSV or XLSX file on a spreadsheet thread, as `owner`'s turn comes. */
export async function buildOnThread(owner: WorkOwner, req: WriteRequest, signal: AbortSignal | undefined, charge: (cpuMs: number) => void): Promise<Buffer> {
  const { bytes } = await onThread(owner, { kind: 'write', ...req }, signal, charge);
  return Buffer.from(bytes!.buffer, bytes!.byteOffset, bytes!.byteLength);
}

export const workStats = () => gate.stats();
