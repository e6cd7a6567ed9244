// What an execute request answers, on every face: the engine's result (engine/result.ts says what each field means)
// and what plan and apply add. The schema describes it for OpenAPI and the MCP tool listing; the type is checked
// against the engine's below, so a field the engine adds or changes cannot go undescribed.
import * as v from 'valibot';
import { ERROR_TYPES, type ExecutionResult } from '../../engine/index.ts';

/** What `error.type` of an execution can be, for every face's description. */
const ERROR_TYPE_DOC = `Why the script failed: one of ${ERROR_TYPES.join(', ')}. \`crashed\`: the sandbox process running it failed (a fatal engine error, its memory cap, or it hung); nothing else was affected and an apply was rolled back. \`quarantined\`: this organization's scripts crashed the sandbox repeatedly and are refused for a cool-down (HTTP 429 engine_quarantined with Retry-After).`;

/**
 * Any JSON value, and its JSON Schema says so with one branch per JSON type: a bare `{}` reads to schema checkers
 * (the MCP Inspector among them) as an untyped mistake, and a `type` array is less portable to clients that map
 * tool schemas onto a single-`type` dialect. (`integer` is within `number`.)
 */
const JsonValue = v.pipe(v.unknown(), v.metadata({ anyOf: ['object', 'array', 'string', 'number', 'boolean', 'null'].map((type) => ({ type })) }));

export const PlannedOperationSchema = v.object({ index: v.number(), binding: v.string(), input: JsonValue });
export type PlannedOperation = v.InferOutput<typeof PlannedOperationSchema>;

const LogEntrySchema = v.object({ level: v.picklist(['log', 'info', 'warn', 'error']), message: v.string() });

const ExecutionErrorSchema = v.object({
  type: v.pipe(v.string(), v.description(ERROR_TYPE_DOC)),
  code: v.optional(v.string()),
  message: v.string(),
  resolution: v.optional(v.string()),
  line: v.optional(v.number()),
});

const ExecutionStatsSchema = v.object({
  wallMs: v.number(),
  cpuMs: v.pipe(v.number(), v.description('Isolate CPU time, sampled while the script runs: a script killed for memory or time still reports what it used.')),
  hostMs: v.pipe(
    v.number(),
    v.description("Server CPU time spent while this execution's binding calls were in flight (waiting on storage costs next to nothing)."),
  ),
  hostCalls: v.number(),
  queueMs: v.number(),
});

/** The fields every execution's answer carries, whatever the mode. */
const executionResultEntries = {
  ok: v.boolean(),
  result: v.optional(v.pipe(JsonValue, v.description('What the script returned: any JSON value.'))),
  logs: v.array(LogEntrySchema),
  error: v.optional(ExecutionErrorSchema),
  truncated: v.boolean(),
  stats: ExecutionStatsSchema,
};

/** What plan and apply add. */
const planEntries = {
  operations: v.optional(v.pipe(v.array(PlannedOperationSchema), v.description('plan/apply: the write calls in order ({index, binding, input}).'))),
  planToken: v.optional(v.pipe(v.string(), v.description('plan: the token that applies this plan (valid 15 minutes).'))),
  applied: v.optional(
    v.pipe(v.boolean(), v.description('apply: true when the writes were committed; false when the script failed and they were rolled back.')),
  ),
};

export const ExecuteOutcomeSchema = v.object({ ...executionResultEntries, ...planEntries });

/** The engine's result without what stays inside the service, and what plan and apply add. */
export type ExecuteOutcome = Omit<ExecutionResult, 'unansweredCalls'> & {
  operations?: PlannedOperation[];
  planToken?: string;
  applied?: boolean;
};

type Output = v.InferOutput<typeof ExecuteOutcomeSchema>;
type Undescribed<A, B> = Exclude<keyof A, keyof B>;
/** Compiles only while every outcome fits the schema and every field of it, its error and its stats is described. */
const described: ExecuteOutcome extends Output
  ? [
      | Undescribed<ExecuteOutcome, Output>
      | Undescribed<NonNullable<ExecuteOutcome['error']>, NonNullable<Output['error']>>
      | Undescribed<ExecuteOutcome['stats'], Output['stats']>,
    ] extends [never]
    ? true
    : false
  : false = true;
described satisfies true;
