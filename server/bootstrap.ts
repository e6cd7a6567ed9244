// Turns a Config into running dependencies: the database (embedded unless DATABASE_URL), migrations, the blob
// store, signing keys and the mailer; and tears them down again in reverse order.
import { join } from 'node:path';
import { chmod, mkdir } from 'node:fs/promises';
import type { Config } from './config.ts';
import type { AppDeps } from './deps.ts';
import { createLogger, type Logger } from './logger.ts';
import { startEmbeddedPostgres, ensureDatabase, type EmbeddedPostgres } from './embedded-postgres.ts';
import { connect, startJanitors, JANITOR_INTERVAL_MS, SigningKeys, systemClock, type Clock, engineStrikeLedger, auditLogFor } from '../runtime-api/index.ts';
import { migrate } from '../runtime-api/store/migrate.ts';
import { fsBlobStore } from '../runtime-api/blobs/fs.ts';
import type { BlobStore } from '../runtime-api/blobs/port.ts';
import { createMailer } from './mail/mailer.ts';
import { createEngine, type Engine, type ExecutionResult } from '../engine/index.ts';
import { loadAskIndex } from './ask/load.ts';
import { withOps } from './ops/index.ts';

export interface Running {
  deps: AppDeps;
  close(): Promise<void>;
}

async function ownerOnly(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await chmod(dir, 0o700);
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
  const refused: ExecutionResult = {
    ok: false,
    result: null,
    logs: [],
    truncated: false,
    stats: { wallMs: 0, cpuMs: 0, hostMs: 0, hostCalls: 0, queueMs: 0 },
    error: { type: 'internal_error', message: 'This process runs no scripts.' },
  };
  return {
    execute: async () => refused,
    ready: async () => {},
    stats: () => ({
      poolSize: 0,
      slots: { ready: 0, busy: 0, starting: 0 },
      queued: 0,
      executions: 0,
      busyRejections: 0,
      overflowSlots: 0,
      isolatesLive: 0,
      isolatesBuilt: 0,
      referenceCount: 0,
      cachedScripts: 0,
      recycled: {},
      catastrophicErrors: 0,
    }),
    close: async () => {},
  };
}

/** `say`: where plain lines for the person who started the server go (npm start: the terminal). */
export async function bootstrap(
  config: Config,
  options: { logger?: Logger; clock?: Clock; engine?: boolean; say?: (line: string) => void } = {},
): Promise<Running> {
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
    // What a migration did to people's data (a file renamed, say) is worth an operator's eye, once, as it happens.
    const applied = await migrate(sql, { log: (entry) => logger.warn(entry.message, { migration: entry.version, ...entry.details }) });
    if (applied.length) logger.info('migrations applied', { versions: applied });
    const keys = await new SigningKeys(sql).init();
    const blobs = await openBlobStore(config);
    // Stored files and the dev outbox are this process's alone: sandbox host processes run as `nobody`, and a V8
    // escape there must not read other tenants' files from a world-readable directory (the data directory itself
    // stays traversable: PostgreSQL, as the postgres user, lives under it).
    if (config.blobStore === 'fs') await ownerOnly(join(config.dataDir, 'blobs'));
    await ownerOnly(join(config.dataDir, 'mail'));
    const mailer = createMailer(config, logger, options.say); // SMTP when SMTP_URL is set, else the dev outbox
    const engine =
      options.engine === false
        ? noEngine()
        : createEngine({
            ...config.engine,
            // ENGINE_HOSTS=0 only: V8 lost control of an isolate inside this process, which can no longer promise isolation.
            // process.exit() from this callback never returns (the process hung, port bound, signals ignored): ask the
            // embedded database to stop (it finishes on its own) and end at once, so a supervisor restarts us.
            onCatastrophicError: (message) => {
              logger.error('isolate catastrophic error; exiting', { message });
              if (embedded)
                try {
                  process.kill(embedded.pid, 'SIGINT');
                } catch {
                  /* already gone */
                }
              process.kill(process.pid, 'SIGKILL');
            },
            // With host processes (the default) a dead host costs only its scripts; the engine replaces it.
            onHostCrash: (death) => logger.warn('sandbox host process died; replaced', { ...death }),
            // Crash budgets and quarantines hold on every instance: strikes live in PostgreSQL.
            strikeLedger: engineStrikeLedger(sql),
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
