// The execute tool's result. structuredContent carries the whole outcome (the engine already capped the result at its
// limit, 1 MB by default, and the logs at theirs) with at most MAX_LISTED_OPERATIONS planned operations; only the text
// content, the same JSON for clients that read text, is kept under ~24 KB, by replacing (never slicing) the result
// and the logs, and it says so. Shaping never throws: whatever the result holds, the reply is a well-formed tool result.
import * as v from 'valibot';
import { ExecuteOutcomeSchema, PlannedOperationSchema, type ExecuteOutcome } from '../../../runtime-api/index.ts';

export const TEXT_CAP_BYTES = 24 * 1024;
/** Planned operations listed in a tool result at most (the plan token covers them all). */
const MAX_LISTED_OPERATIONS = 100;

const { logs, truncated, stats } = ExecuteOutcomeSchema.entries;
const NOT_RUN = 'Absent when the script did not run: arguments refused, or a plan token refused before the apply.';

/**
 * The outcome as /app/v1/execute answers it, but for the planned operations (the first MAX_LISTED_OPERATIONS), and
 * for the refusals REST answers with a status: here they are answers of the tool, so the schema describes them too
 * (SDK clients check every structuredContent against it, error results included).
 */
export const ExecuteToolOutput = v.object({
  ...ExecuteOutcomeSchema.entries,
  logs: v.optional(v.pipe(logs, v.description(NOT_RUN))),
  truncated: v.optional(v.pipe(truncated, v.description(NOT_RUN))),
  stats: v.optional(v.pipe(stats, v.description(NOT_RUN))),
  operations: v.optional(
    v.pipe(
      v.array(PlannedOperationSchema),
      v.description(`plan/apply: the write calls in order ({index, binding, input}), the first ${MAX_LISTED_OPERATIONS}.`),
    ),
  ),
  operationsOmitted: v.optional(v.pipe(v.number(), v.integer(), v.description('plan/apply: how many more write calls the plan holds beyond those listed.'))),
});

/** What a script that ran answers: every field a refusal may lack is there. */
export type ExecuteContent = v.InferOutput<typeof ExecuteToolOutput> &
  Required<Pick<v.InferOutput<typeof ExecuteToolOutput>, 'logs' | 'truncated' | 'stats'>> & {
    /** Text content only: why it was shortened. */
    resolution?: string;
  };

export interface ShapedExecuteResult {
  /** The whole outcome. */
  structured: ExecuteContent;
  /** Its JSON, shortened to about TEXT_CAP_BYTES when needed (then `textShortened: true` says so). */
  text: string;
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

const TEXT_NOTICE = 'The text content is shortened to about 24 KB; structuredContent carries the whole result and every log line.';

function shortenLogs(logs: ExecuteContent['logs']): ExecuteContent['logs'] {
  if (bytes(logs) <= TEXT_CAP_BYTES / 4) return logs;
  const kept: ExecuteContent['logs'] = [];
  let size = 0;
  for (const line of logs) {
    size += bytes(line);
    if (size > TEXT_CAP_BYTES / 4) break;
    kept.push(line);
  }
  return [...kept, { level: 'warn', message: `[${logs.length - kept.length} more log lines in structuredContent]` }];
}

function shortText(content: ExecuteContent): string {
  const text: ExecuteContent & { textShortened: true } = { ...content, logs: shortenLogs(content.logs), textShortened: true, resolution: TEXT_NOTICE };
  if (content.ok && bytes(text) > TEXT_CAP_BYTES) {
    const json = JSON.stringify(content.result ?? null);
    // The preview is a string, so escaping can grow it: shrink until the whole text fits.
    let room = Math.max(256, TEXT_CAP_BYTES - bytes({ ...text, result: null }) - 512);
    do {
      text.result = { preview: json.slice(0, room), originalBytes: Buffer.byteLength(json) };
      room = Math.floor(room * 0.8);
    } while (bytes(text) > TEXT_CAP_BYTES && room > 64);
  }
  return JSON.stringify(text);
}

function unshapeable(result: ExecuteOutcome): ShapedExecuteResult {
  const structured: ExecuteContent = {
    ok: false,
    logs: [],
    truncated: result.truncated === true,
    error: { type: 'internal_error', message: 'The execution finished but its outcome could not be encoded.' },
    stats: result.stats,
  };
  return { structured, text: JSON.stringify(structured) };
}

/** What plan and apply add to a result: the operations (the first MAX_LISTED_OPERATIONS), the token, applied. */
function planFields(result: ExecuteOutcome): Pick<ExecuteContent, 'operations' | 'operationsOmitted' | 'planToken' | 'applied'> {
  const out: Pick<ExecuteContent, 'operations' | 'operationsOmitted' | 'planToken' | 'applied'> = {};
  if (result.operations) {
    out.operations = result.operations.slice(0, MAX_LISTED_OPERATIONS);
    if (result.operations.length > MAX_LISTED_OPERATIONS) out.operationsOmitted = result.operations.length - MAX_LISTED_OPERATIONS;
  }
  if (result.planToken) out.planToken = result.planToken;
  if (result.applied !== undefined) out.applied = result.applied;
  return out;
}

export function shapeExecuteResult(result: ExecuteOutcome): ShapedExecuteResult {
  try {
    const structured: ExecuteContent = {
      ok: result.ok,
      ...(result.ok ? { result: result.result ?? null } : {}),
      logs: result.logs,
      ...(result.error ? { error: result.error } : {}),
      truncated: result.truncated,
      stats: result.stats,
      ...planFields(result),
    };
    const full = JSON.stringify(structured);
    return { structured, text: Buffer.byteLength(full) <= TEXT_CAP_BYTES ? full : shortText(structured) };
  } catch {
    return unshapeable(result);
  }
}
