// Turns a Config into running dependencies: the database (embedded unless DATABASE_URL), migrations, the blob
// store, signing keys and the mailer; and tears them down again in reverse order.
import { join } from 'node:path';
import type { Config } from './config.ts';
import type { AppDeps } from './deps.ts';
import { createLogger, type Logger } from './logger.ts';
import { startEmbeddedPostgres, ensureDatabase, type EmbeddedPostgres } from './embedded-postgres.ts';
import { connect } from '../runtime-api/store/sql.ts';
import { migrate } from '../runtime-api/store/migrate.ts';
import { fsBlobStore } from '../runtime-api/blobs/fs.ts';
import { startJanitors, JANITOR_INTERVAL_MS } from '../runtime-api/services/janitors.ts';
import type { BlobStore } from '../runtime-api/blobs/port.ts';
import { SigningKeys } from '../runtime-api/services/signing-keys.ts';
import { systemClock, type Clock } from '../runtime-api/clock.ts';
import { createMailer } from './mail/mailer.ts';
import { createEngine, type Engine, type ExecutionResult } from '../engine/index.ts';
import { loadAskIndex } from './ask/load.ts';
import { auditLogFor } from '../runtime-api/services/audit-log.ts';
import { withOps } from './ops/index.ts';

export interface Running {
  deps: AppDeps;
  close(): Promise<void>;
}

export async function openBlobStore(config: Config): Promise<BlobStore> {
  if (config.blobStore === 'gcs') {
    // GCS_API_ENDPOINT points the client at an emulator or test server (unauthenticated); else ADC credentials.
    // Loaded only when configured: the GCS client is several MB of heap every other deployment would carry.
    const { gcsBlobStore } = await import('../runtime-api/blobs/gcs.ts');
    return gcsBlobStore({ bucket: config.gcs.bucket!, apiEndpoint: config.gcs.apiEndpoint, projectId: config.gcs.projectId });
  }
  return fsBlobStore(join(config.dataDir, 'blobs'));
}

/**
 * The engine of a process that runs no scripts (mint-token and other one-shot tools): no isolates are built, and an
 * execution is refused. Such tools exit moments after starting; building and disposing a pool only to exit raced
 * isolated-vm's teardown (an occasional abort at exit).
 */
function noEngine(): Engine {
  const refused: ExecutionResult = { ok: false, result: null, logs: [], truncated: false, stats: { wallMs: 0, cpuMs: 0, hostCalls: 0, queueMs: 0 },
    error: { type: 'internal_error', message: 'This process runs no scripts.' } };
  return {
    execute: async () => refused,
    ready: async () => {},
    stats: () => ({ poolSize: 0, slots: { ready: 0, busy: 0, starting: 0 }, queued: 0, executions: 0, busyRejections: 0, overflowSlots: 0,
      isolatesLive: 0, isolatesBuilt: 0, referenceCount: 0, cachedScripts: 0, recycled: {}, catastrophicErrors: 0 }),
    close: async () => {},
  };
}

export async function bootstrap(config: Config, options: { logger?: Logger; clock?: Clock; engine?: boolean } = {}): Promise<Running> {
  const logger = options.logger ?? createLogger(config.logLevel);
  let embedded: EmbeddedPostgres | null = null;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({ dir: join(config.dataDir, 'postgres'), log: (line) => logger.info(line) });
    await ensureDatabase(embedded.adminUrl, 'siglata');
    databaseUrl = embedded.urlFor('siglata');
  }
  const sql = connect(databaseUrl, { max: config.databasePoolMax });
  try {
    const applied = await migrate(sql);
    if (applied.length) logger.info('migrations applied', { versions: applied });
    const keys = await new SigningKeys(sql).init();
    const blobs = await openBlobStore(config);
    const mailer = createMailer(config, logger); // SMTP when SMTP_URL is set, else the dev outbox
    const engine = options.engine === false ? noEngine() : createEngine({
      ...config.engine,
      // V8 lost control of an isolate: this process can no longer promise isolation; stop so a supervisor restarts it.
      onCatastrophicError: (message) => { logger.error('isolate catastrophic error; exiting', { message }); process.exit(70); },
    });
    await engine.ready();
    const askIndex = await loadAskIndex(undefined, logger);
    const deps: AppDeps = withOps({ config, sql, blobs, clock: options.clock ?? systemClock, keys, mailer, logger, engine, askIndex });
    const stopJanitors = startJanitors(deps, JANITOR_INTERVAL_MS); // expiry, trash purge, orphans
    return {
      deps,
      async close() {
        await stopJanitors();
        await engine.close();
        await auditLogFor(sql).flush();
        await sql.end({ timeout: 5 });
        await embedded?.stop();
      },
    };
  } catch (err) {
    await sql.end({ timeout: 1 }).catch(() => {});
    await embedded?.stop();
    throw err;
  }
}
