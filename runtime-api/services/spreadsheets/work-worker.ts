// A spreadsheet thread: a parse (bytes in, a validated workbook out) or a build (a caller's workbook in, checked, and
// the file's bytes out), or the ServiceError's code and texts, with the thread CPU time the work took, so the caller
// can charge it to the execution that asked.
import { parentPort } from 'node:worker_threads';
import * as v from 'valibot';
import { readCsv } from './csv.ts';
import { readXlsx } from './xlsx.ts';
import { buildSpreadsheet } from './write.ts';
import { WorkbookSchema, WORKBOOK_VERSION } from '../../bindings/spreadsheets/workbook.ts';
import { ServiceError } from '../../errors.ts';
import type { WorkReply, WorkRequest } from './work-pool.ts';

async function parse(req: Extract<WorkRequest, { kind: 'csv' | 'xlsx' }>) {
  const bytes = Buffer.from(req.bytes.buffer, req.bytes.byteOffset, req.bytes.byteLength);
  const raw =
    req.kind === 'xlsx'
      ? await readXlsx(bytes, req.options)
      : { version: WORKBOOK_VERSION, sheets: [readCsv(bytes, { ...req.options, sheetName: req.sheetName })] };
  const out = v.safeParse(WorkbookSchema, raw);
  if (!out.success) throw new Error(`the parser built an invalid workbook: ${out.issues[0]?.message}`);
  return out.output;
}

parentPort!.on('message', async (req: WorkRequest) => {
  const from = process.threadCpuUsage();
  const cpuMs = () => {
    const d = process.threadCpuUsage(from);
    return (d.user + d.system) / 1000;
  };
  let reply: WorkReply;
  const transfer: ArrayBuffer[] = [];
  try {
    if (req.kind === 'write') {
      const data = await buildSpreadsheet(req);
      // Handed over, not copied: a copy of ours (a Buffer may sit in a shared pool) whose memory moves to the server.
      const bytes = new Uint8Array(data.length);
      bytes.set(data);
      transfer.push(bytes.buffer);
      reply = { id: req.id, ok: true, bytes, cpuMs: cpuMs() };
    } else {
      reply = { id: req.id, ok: true, workbook: await parse(req), cpuMs: cpuMs() };
    }
  } catch (err) {
    reply =
      err instanceof ServiceError
        ? {
            id: req.id,
            ok: false,
            code: err.code,
            resolution: { 'en-US': err.resolutionFor('en-US') ?? '', 'pt-BR': err.resolutionFor('pt-BR') ?? '' },
            cpuMs: cpuMs(),
          }
        : { id: req.id, ok: false, code: 'internal_error', detail: String((err as Error)?.stack ?? err), cpuMs: cpuMs() };
  }
  parentPort!.postMessage(reply, transfer);
});
