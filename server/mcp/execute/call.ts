// The execute tool's call: the arguments checked with the schema /app/v1/execute validates with, the script run,
// planned or applied as the caller, and the outcome shaped as a tool result.
import type Koa from 'koa';
import * as v from 'valibot';
import { ExecuteInput, ServiceError, describeIssues, executeInMode, type Caller, type ExecuteOutcome, type Locale } from '../../../runtime-api/index.ts';
import { executeContext, type AppDeps } from '../../deps.ts';
import type { CallToolResult } from '../protocol.ts';
import { toolError } from '../tool-error.ts';
import { isCliRequest } from '../../http/client-kind.ts';
import { insufficientScope } from '../step-up.ts';
import { perTokenLimit } from './in-flight.ts';
import { shapeExecuteResult } from './result.ts';

function invalidArguments(issues: readonly v.BaseIssue<unknown>[], locale: Locale): CallToolResult {
  const why = describeIssues(issues, locale);
  return toolError(`execute needs {"script": "<the body of an async function>", "mode"?: "run"|"plan"|"apply", "planToken"?: string}: ${why}`, {
    error: { type: 'invalid_input', message: why },
  });
}

/** A refused plan (bad token, writes changed: 400/409) is the tool's answer, not a transport failure. */
function refusal(err: unknown, locale: Locale): CallToolResult {
  if (!(err instanceof ServiceError) || err.status >= 500 || err.status === 403 || err.status === 401 || err.status === 429) throw err;
  const body = err.toBody(locale) as { message?: string; error?: { message: string } };
  const message = body.error?.message ?? body.message;
  const resolution = err.resolutionFor(locale);
  return toolError(`${err.code}: ${message}${resolution ? ` ${resolution}` : ''}`, {
    error: { type: 'tool_error', code: err.code, message, ...(resolution ? { resolution } : {}) },
  });
}

function toolResult(outcome: ExecuteOutcome): CallToolResult {
  const { structured, text } = shapeExecuteResult(outcome);
  return { content: [{ type: 'text', text }], structuredContent: { ...structured }, isError: !outcome.ok } satisfies CallToolResult;
}

export function executeTool(deps: AppDeps) {
  const within = perTokenLimit();
  return async function callExecute(ctx: Koa.Context, caller: Caller, args: unknown): Promise<CallToolResult> {
    const parsed = v.safeParse(ExecuteInput, args);
    if (!parsed.success) return invalidArguments(parsed.issues, caller.locale);
    // An uncaught scope refusal is a 403 step-up: the header names the scope to ask for.
    const scopeError = (refusal: ServiceError) =>
      typeof refusal.details?.requiredScope === 'string' ? insufficientScope(deps, ctx, refusal.details.requiredScope) : refusal;
    return within(caller.credentialId ?? caller.userId, () =>
      executeInMode({ ...executeContext(deps, 'mcp', isCliRequest(ctx)), scopeError }, caller, parsed.output).then(toolResult, (err) =>
        refusal(err, caller.locale),
      ),
    );
  };
}
