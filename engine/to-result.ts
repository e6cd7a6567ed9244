// An ended run (run.ts RunEnd) as the ExecutionResult the caller gets: the outcome checked against the result cap
// and parsed, with the execution's logs and stats. The same whether the isolate ran in-process or in a host.
import type { Execution } from './bridge.ts';
import type { RunEnd } from './run.ts';
import type { ExecutionError, ExecutionResult } from './result.ts';

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

export function toResult(ex: Execution, end: RunEnd, queueMs: number): ExecutionResult {
  const { outcome } = end;
  const stats = { wallMs: round(end.wallMs), cpuMs: round(end.cpuMs), hostMs: round(ex.hostMs), hostCalls: ex.hostCalls, queueMs: round(queueMs) };
  const base = { logs: ex.logs, truncated: ex.truncated, stats, ...(ex.unanswered.length ? { unansweredCalls: ex.unanswered } : {}) };
  let error: ExecutionError;
  if ('type' in outcome) error = outcome;
  else if (outcome.kind === 'error') error = outcome.error;
  else if (outcome.json.length > ex.limits.maxResultBytes || Buffer.byteLength(outcome.json) > ex.limits.maxResultBytes) {
    error = { type: 'limit_exceeded', code: 'max_result_bytes', message: `The result is larger than ${ex.limits.maxResultBytes} bytes.` };
  } else {
    try {
      return { ok: true, result: outcome.json === '' ? null : JSON.parse(outcome.json), ...base };
    } catch {
      error = { type: 'internal_error', message: 'The script produced an unreadable result.' };
    }
  }
  return { ok: false, result: null, error, ...base };
}
