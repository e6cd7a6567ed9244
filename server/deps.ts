// What createApp needs. Everything is passed in; nothing opens connections or reads env at import time.
import type { Sql } from 'postgres';
import type { Config } from './config.ts';
import type { BlobStore, Clock, ExecuteContext, Mailer, SigningKeys, InvokeDeps } from '../runtime-api/index.ts';
import type { Logger } from './logger.ts';
import type { Engine } from '../engine/index.ts';
import type { AskIndex } from './ask/index.ts';
import type { Ops } from './ops/index.ts';

export interface AppDeps {
  config: Config;
  sql: Sql;
  blobs: BlobStore;
  clock: Clock;
  keys: SigningKeys;
  mailer: Mailer;
  logger: Logger;
  /** The isolate pool that runs execute scripts. */
  engine: Engine;
  /** The /ask index; null while the public corpus is unavailable (503). */
  askIndex?: AskIndex | null;
  /** Lifecycle (drain) and metrics, attached by withOps (server/ops); absent in apps built without them. */
  ops?: Ops;
}

/** The subset handed to `invoke` (bindings never see the HTTP layer). */
export function invokeDeps(deps: AppDeps): InvokeDeps {
  return { sql: deps.sql, blobs: deps.blobs, clock: deps.clock, config: deps.config, services: { mailer: deps.mailer } };
}

/**
 * What running a script needs from the app, for the face `via` (the audit log says which face ran it, and whether
 * the client said it is the command line: `cli`).
 */
export function executeContext(deps: AppDeps, via: ExecuteContext['via'], cli = false): ExecuteContext {
  return { engine: deps.engine, deps: invokeDeps(deps), keys: deps.keys, via, ...(cli ? { cli } : {}) };
}
