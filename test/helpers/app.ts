// The real app, in-process on an ephemeral port, over its own database (cloned from the migrated template),
// its own data directory and real files. Tests speak HTTP to `url` with undici.
import type { Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import type Koa from 'koa';
import { loadConfig, type Config, type EnvName } from '../../server/config.ts';
import { createApp, routeTable } from '../../server/app.ts';
import { serveApp } from '../../server/http/serve.ts';
import { createHttpServer } from '../../server/http/http-server.ts';
import { createEngine, type Engine } from '../../engine/index.ts';
import { engineStrikeLedger } from '../../runtime-api/store/engine-strikes.ts';
import { loadAskIndex } from '../../server/ask/load.ts';
import { auditLogFor } from '../../runtime-api/services/audit-log.ts';
import type { RouteDef } from '../../server/http/route.ts';
import { createLogger } from '../../server/logger.ts';
import type { AppDeps } from '../../server/deps.ts';
import { connect } from '../../runtime-api/store/sql.ts';
import { fsBlobStore } from '../../runtime-api/blobs/fs.ts';
import type { BlobStore } from '../../runtime-api/blobs/port.ts';
import { SigningKeys } from '../../runtime-api/identity/signing-keys.ts';
import { manualClock, systemClock, type Clock } from '../../runtime-api/clock.ts';
import { mintToken, type MintRequest } from '../../runtime-api/identity/mint-token.ts';
import { tokenSettings } from '../../server/auth/token-caller.ts';
import type { Mailer } from '../../runtime-api/define.ts';
import { createTestDatabase } from './test-postgres.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { withOps } from '../../server/ops/index.ts';

export interface TestAppOptions {
  /** Routes served besides the route table (to exercise the shared pipeline, e.g. deprecation headers). */
  extraRoutes?: (deps: AppDeps) => RouteDef[];
  /** A second instance on the same database as `sharedWith` (its database is not dropped by this one). */
  sharedWith?: TestApp;
  env?: Partial<Record<EnvName, string>>;
  /** Use a manual clock that the test can move (`app.clock.advance(ms)`). */
  manualClock?: boolean;
  blobs?: (dataDir: string) => BlobStore | Promise<BlobStore>;
  mailer?: Mailer;
  /** Where /ask's public corpus is read from (default fixtures/site); a missing directory leaves /ask without one. */
  askCorpusDir?: string;
}

export interface TestApp {
  url: string;
  koa: Koa;
  databaseUrl: string;
  config: Config;
  deps: AppDeps;
  clock: Clock & Partial<ReturnType<typeof manualClock>>;
  server: Server;
  /** A real access token (user and organization created as needed; the user owns a new organization). */
  token(req: Partial<MintRequest> & { email: string }): Promise<string>;
  mint(req: Partial<MintRequest> & { email: string }): Promise<Awaited<ReturnType<typeof mintToken>>>;
  close(): Promise<void>;
}

/** Mail sent by the app, kept in memory, for tests that do not run the SMTP catcher. */
export function memoryMailer(): Mailer & { sent: { to: string; subject: string; text: string; html?: string }[] } {
  const sent: { to: string; subject: string; text: string; html?: string }[] = [];
  return {
    sent,
    async send(m) {
      sent.push(m);
    },
  };
}

/**
 * The real engine, built on first use: most test files never run a script, and a file that builds isolates only to
 * dispose of them at once gains nothing but a process exit racing isolate teardown under tap.
 */
function lazyEngine(build: () => Engine): Engine {
  let engine: Engine | null = null;
  const get = () => (engine ??= build());
  return {
    execute: (request) => get().execute(request),
    ready: () => get().ready(),
    stats: () => get().stats(),
    close: async () => {
      await engine?.close();
    },
  };
}

export async function startTestApp(t: Test, options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.sharedWith ? { url: options.sharedWith.databaseUrl, drop: async () => {} } : await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'siglata-test-'));
  // The port is chosen by listening, before the rest of the config (which names it) can be read; the server's
  // client time limits come from the same variables as in production.
  const server = createHttpServer(loadConfig({}, options.env).http);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig(
    {},
    {
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      ...options.env,
      PORT: String(port),
      PUBLIC_BASE_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
    },
  );
  const sql = connect(db.url, { max: config.databasePoolMax });
  const clock = options.manualClock ? manualClock() : systemClock;
  const keys = await new SigningKeys(sql).init();
  const blobs = options.blobs ? await options.blobs(dataDir) : fsBlobStore(join(dataDir, 'blobs'));
  const deps: AppDeps = withOps({
    config,
    sql,
    blobs,
    clock,
    keys,
    // SMTP_URL in `env` (e.g. the SMTP catcher's url) sends real mail through nodemailer.
    mailer: options.mailer ?? (config.smtpUrl ? createMailer(config, createLogger(config.logLevel)) : memoryMailer()),
    logger: createLogger(config.logLevel),
    askIndex: await loadAskIndex(options.askCorpusDir, createLogger('silent')),
    engine: lazyEngine(() =>
      createEngine({
        ...config.engine,
        strikeLedger: engineStrikeLedger(sql),
        onCatastrophicError: (message) => {
          throw new Error(`isolate catastrophic error: ${message}`);
        },
      }),
    ),
  });
  const app = createApp(deps, [...routeTable(deps), ...(options.extraRoutes?.(deps) ?? [])]);
  serveApp(server, app);

  const mint = (req: Partial<MintRequest> & { email: string }) => {
    const given = Object.fromEntries(Object.entries(req).filter(([, value]) => value !== undefined));
    return mintToken(sql, keys, tokenSettings(deps), clock, {
      org: `org-${req.email
        .split('@')[0]
        .replace(/[^a-z0-9-]/gi, '')
        .toLowerCase()}`,
      scopes: ['files:read', 'files:write', 'org:read', 'org:admin'],
      ...given,
      email: req.email,
    } as MintRequest);
  };

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await deps.engine.close();
    await auditLogFor(sql).flush();
    await sql.end({ timeout: 2 });
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  t.teardown(close);
  return {
    url,
    koa: app,
    databaseUrl: db.url,
    config,
    deps,
    clock: clock as TestApp['clock'],
    server,
    mint,
    token: async (req) => (await mint(req)).token,
    close,
  };
}
