// Helpers for the archive tests: build tar and zip archives (the same libraries a client would use, plus byte
// patches for names those libraries refuse to write), send them through the ordinary upload route, and read the
// archives an export streams back.
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { createHash } from 'node:crypto';
import { request } from 'undici';
import tar from 'tar-stream';
import yazl from 'yazl';
import yauzl from 'yauzl';
import type { TestApp } from '../helpers/app.ts';
import type { Caller } from '../../runtime-api/identity/caller.ts';
import { invoke } from '../../runtime-api/invoke.ts';
import { invokeDeps } from '../../server/deps.ts';
import { upload_begin } from '../../runtime-api/bindings/uploads/upload_begin.ts';
import { partOf, putPart } from './transfer-helpers.ts';

export interface TarEntry {
  name: string;
  data?: Buffer | string;
  type?: tar.Header['type'];
  mode?: number;
  mtime?: Date;
  linkname?: string;
}

async function collect(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

export async function makeTar(entries: readonly TarEntry[], options: { gzip?: boolean } = {}): Promise<Buffer> {
  const pack = tar.pack();
  const done = collect(options.gzip ? Readable.from(pack as AsyncIterable<Buffer>).pipe(createGzip()) : (pack as AsyncIterable<Buffer>));
  for (const e of entries) {
    const data = e.data === undefined ? undefined : Buffer.from(e.data);
    await new Promise<void>((resolve, reject) => {
      const header = {
        name: e.name,
        type: e.type ?? 'file',
        mode: e.mode ?? 0o644,
        mtime: e.mtime ?? new Date('2026-01-02T03:04:05Z'),
        ...(e.linkname ? { linkname: e.linkname } : {}),
        ...(data ? { size: data.length } : { size: 0 }),
      };
      if (data) pack.entry(header, data, (err) => (err ? reject(err) : resolve()));
      else pack.entry(header, (err) => (err ? reject(err) : resolve())).end(undefined);
    });
  }
  pack.finalize();
  return done;
}

export interface ZipEntry {
  name: string;
  data?: Buffer | string;
  folder?: boolean;
  mode?: number;
  mtime?: Date;
  compress?: boolean;
}

export async function makeZip(entries: readonly ZipEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const done = collect(zip.outputStream as unknown as AsyncIterable<Buffer>);
  for (const e of entries) {
    const mtime = e.mtime ?? new Date('2026-01-02T03:04:05Z');
    if (e.folder) zip.addEmptyDirectory(e.name, { mtime, ...(e.mode ? { mode: e.mode } : {}) });
    else zip.addBuffer(Buffer.from(e.data ?? ''), e.name, { mtime, compress: e.compress ?? true, ...(e.mode ? { mode: e.mode } : {}) });
  }
  zip.end();
  return done;
}

/** Every occurrence of `from` in the archive's bytes becomes `to` (same byte length): names no library writes. */
export function patch(archive: Buffer, from: string, to: string | Buffer): Buffer {
  const a = Buffer.from(from);
  const b = Buffer.isBuffer(to) ? to : Buffer.from(to);
  if (a.length !== b.length) throw new Error('patch: same length only');
  const out = Buffer.from(archive);
  let n = 0;
  for (let i = out.indexOf(a); i !== -1; i = out.indexOf(a, i + 1), n++) b.copy(out, i);
  if (!n) throw new Error(`patch: ${from} not found`);
  return out;
}

/**
 * A zip whose central directory lists `copies` entries that all point at the first entry's data: the overlapping
 * zip bomb (each entry's own ratio is modest; together they expand the same bytes many times).
 */
export function overlappingZip(single: Buffer, copies: number): Buffer {
  const eocd = single.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const cdSize = single.readUInt32LE(eocd + 12);
  const cdOffset = single.readUInt32LE(eocd + 16);
  const record = single.subarray(cdOffset, cdOffset + cdSize);
  const nameLength = record.readUInt16LE(28);
  const records: Buffer[] = [];
  for (let i = 0; i < copies; i++) {
    const r = Buffer.from(record);
    const name = Buffer.from(`b${String(i).padStart(nameLength - 1, '0')}`.slice(-nameLength));
    name.copy(r, 46);
    records.push(r);
  }
  const cd = Buffer.concat(records);
  const end = Buffer.from(single.subarray(eocd));
  end.writeUInt16LE(copies, 8);
  end.writeUInt16LE(copies, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([single.subarray(0, cdOffset), cd, end]);
}

/** The archive sent as an upload through the ordinary part route (parts in parallel); its uploadId. */
export async function uploadArchive(app: TestApp, caller: Caller & { token: string }, data: Buffer, name = 'archive.bin'): Promise<string> {
  const begun = await invoke(upload_begin, { name, byteLength: data.length }, caller, invokeDeps(app.deps));
  const results = await Promise.all(Array.from({ length: begun.partCount }, (_, i) => putPart(app, caller.token, begun.uploadId, i + 1, partOf(data, i + 1))));
  for (const r of results) if (r.status !== 200) throw new Error(`part upload failed: ${r.status} ${r.body.toString()}`);
  return begun.uploadId;
}

export interface ReadEntry {
  name: string;
  data: Buffer;
  mtime: Date;
  mode: number;
  type: string;
}

export async function readTar(archive: Buffer): Promise<ReadEntry[]> {
  const extract = tar.extract();
  const out: ReadEntry[] = [];
  extract.end(archive);
  for await (const entry of extract) {
    out.push({ name: entry.header.name, data: await collect(entry), mtime: entry.header.mtime, mode: entry.header.mode, type: entry.header.type });
  }
  return out;
}

export async function readZip(archive: Buffer): Promise<ReadEntry[]> {
  const zip = await yauzl.fromBufferPromise(archive, { lazyEntries: true });
  const out: ReadEntry[] = [];
  for await (const e of zip.eachEntry()) {
    const stream = await zip.openReadStreamPromise(e);
    out.push({ name: e.fileName, data: await collect(stream), mtime: e.getLastModDate(), mode: (e.externalFileAttributes >>> 16) & 0xffff, type: 'file' });
  }
  return out;
}

export async function fetchBytes(url: string, token: string | null): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  const res = await request(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

export const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
