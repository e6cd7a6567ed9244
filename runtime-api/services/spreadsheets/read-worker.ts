// A spreadsheet parser thread: bytes in, a validated workbook out (or the ServiceError's code and texts), with the
// thread CPU time the parse took, so the caller can charge it to the execution that asked.
import { parentPort } from 'node:worker_threads';
import * as v from 'valibot';
import { readCsv } from './csv.ts';
import { readXlsx } from './xlsx.ts';
import { WorkbookSchema, WORKBOOK_VERSION } from '../../bindings/spreadsheets/workbook.ts';
import { ServiceError } from '../../errors.ts';
import type { ParseReply, ParseRequest } from './read-pool.ts';

parentPort!.on('message', async (req: ParseRequest) => {
  const from = process.threadCpuUsage();
  const cpuMs = () => { const d = process.threadCpuUsage(from); return (d.user + d.system) / 1000; };
  let reply: ParseReply;
  try {
    const bytes = Buffer.from(req.bytes.buffer, req.bytes.byteOffset, req.bytes.byteLength);
    const raw = req.kind === 'xlsx'
      ? await readXlsx(bytes, req.options)
      : { version: WORKBOOK_VERSION, sheets: [readCsv(bytes, { ...req.options, sheetName: req.sheetName })] };
    const out = v.safeParse(WorkbookSchema, raw);
    if (!out.success) throw new Error(`the parser built an invalid workbook: ${out.issues[0]?.message}`);
    reply = { id: req.id, ok: true, workbook: out.output, cpuMs: cpuMs() };
  } catch (err) {
    reply = err instanceof ServiceError
      ? { id: req.id, ok: false, code: err.code, resolution: { 'en-US': err.resolutionFor('en-US') ?? '', 'pt-BR': err.resolutionFor('pt-BR') ?? '' }, cpuMs: cpuMs() }
      : { id: req.id, ok: false, code: 'internal_error', detail: String((err as Error)?.stack ?? err), cpuMs: cpuMs() };
  }
  parentPort!.postMessage(reply);
});
