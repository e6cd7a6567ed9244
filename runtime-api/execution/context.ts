// What running a script needs besides the caller: the engine, the binding deps, the plan-signing keys, and which face
// asked (for the audit log and the face's own form of a scope refusal).
import type { Engine } from '../../engine/index.ts';
import type { InvokeDeps } from '../invoke.ts';
import type { ServiceError } from '../errors.ts';
import type { SigningKeys } from '../identity/signing-keys.ts';

export interface ExecuteContext {
  engine: Pick<Engine, 'execute'>;
  deps: InvokeDeps;
  keys: SigningKeys;
  via: 'mcp' | 'app';
  /** The client said it is the siglata command line (the audit log's `source` is then `cli`). */
  cli?: boolean;
  /**
   * The error for a script that ended on an uncaught scope refusal (spec 5.5: 403 INSUFFICIENT_SCOPE on every
   * face); a face may add its own headers (MCP: the step-up WWW-Authenticate). Default: the binding's refusal.
   */
  scopeError?: (refusal: ServiceError) => ServiceError;
}
