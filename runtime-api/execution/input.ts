// What an execute request carries, on every face (/app/v1/execute, the MCP execute tool): one valibot schema from
// which each face validates and its description (OpenAPI, the MCP tool listing) is generated.
import * as v from 'valibot';

const EXECUTE_MODES = ['run', 'plan', 'apply'] as const;
export type ExecuteMode = (typeof EXECUTE_MODES)[number];

/**
 * The longest planToken a request may carry, the same on every face so that a plan made over one can be applied over
 * the other. The token grows 15 characters per planned write (an 8-byte digest of each, base64url inside the
 * base64url payload) over about 200, so a plan of the default 1,000 binding calls, every one a write, is about 15,200
 * characters; the cap leaves room for SCRIPT_MAX_HOST_CALLS raised to about 4,300.
 */
export const PLAN_TOKEN_MAX_CHARS = 65_536;

export const ExecuteInput = v.strictObject({
  script: v.pipe(v.string(), v.minLength(1), v.description('The body of an async function, in JavaScript or erasable TypeScript; `return` gives the result.')),
  mode: v.optional(
    v.pipe(
      v.picklist(EXECUTE_MODES),
      v.description('"run" performs the writes; "plan" records them and returns operations and a planToken; "apply" re-runs the planned script atomically.'),
    ),
    'run',
  ),
  planToken: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(PLAN_TOKEN_MAX_CHARS),
      v.description('With mode "apply": the planToken returned by mode "plan" (about 15 bytes longer per planned write).'),
    ),
  ),
});

/** A request as a caller sends it (mode defaults to "run"). */
export type ExecuteRequest = v.InferInput<typeof ExecuteInput>;
