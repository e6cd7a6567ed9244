// Shapes an execution result for MCP: structuredContent and the same JSON as text, kept under ~24 KB by
// replacing (never slicing) the result and the logs, so the text is always valid JSON.
import type { ExecutionResult } from '../../runtime-api/engine-port.ts';
import { TEXT_CAP_BYTES } from './tools.ts';

export interface ExecuteContent {
  ok: boolean;
  result?: unknown;
  logs: unknown[];
  error?: ExecutionResult['error'];
  truncated: boolean;
  resolution?: string;
  stats: ExecutionResult['stats'];
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

export function shapeExecuteResult(result: ExecutionResult): ExecuteContent {
  const content: ExecuteContent = {
    ok: result.ok,
    ...(result.ok ? { result: result.result ?? null } : {}),
    logs: result.logs,
    ...(result.error ? { error: result.error } : {}),
    truncated: result.truncated,
    stats: result.stats,
  };
  if (bytes(content) <= TEXT_CAP_BYTES) return content;
  content.truncated = true;
  if (bytes(content.logs) > TEXT_CAP_BYTES / 4) {
    const kept: unknown[] = [];
    let size = 0;
    for (const line of content.logs) {
      size += bytes(line);
      if (size > TEXT_CAP_BYTES / 4) break;
      kept.push(line);
    }
    content.logs = [...kept, { level: 'warn', message: `[${content.logs.length - kept.length} more log lines omitted]` }];
  }
  if (result.ok && bytes(content) > TEXT_CAP_BYTES) {
    const json = JSON.stringify(result.result ?? null);
    content.resolution = 'The result was too large for one reply and was replaced by a preview: filter, aggregate or page in the script and return less.';
    // The preview is a string, so escaping can grow it: shrink until the whole reply fits.
    let room = Math.max(256, TEXT_CAP_BYTES - bytes({ ...content, result: null }) - 512);
    do {
      content.result = { preview: json.slice(0, room), originalBytes: Buffer.byteLength(json) };
      room = Math.floor(room * 0.8);
    } while (bytes(content) > TEXT_CAP_BYTES && room > 64);
  }
  return content;
}
