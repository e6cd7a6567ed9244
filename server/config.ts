// Configuration: the environment parsed once with valibot, every problem reported together, frozen.
// Every variable is documented in .env.example (a test checks that the two agree).
import * as v from 'valibot';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

const int = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(min), v.maxValue(max));
const bool = v.pipe(
  v.picklist(['true', 'false', '1', '0']),
  v.transform((s) => s === 'true' || s === '1'),
);
const url = v.pipe(v.string(), v.url('must be a URL'));

/** name → [schema, default or undefined when optional]. The order here is the order in .env.example. */
export const ENV_SPEC = {
  PORT: [int(0, 65535), '8080'],
  HOST: [v.pipe(v.string(), v.minLength(1)), '127.0.0.1'],
  PUBLIC_BASE_URL: [url, undefined],
  DATA_DIR: [v.pipe(v.string(), v.minLength(1)), '.data'],
  DATABASE_URL: [v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')), undefined],
  DATABASE_POOL_MAX: [int(1, 1000), '10'],
  BLOB_STORE: [v.picklist(['fs', 'gcs']), 'fs'],
  GCS_BUCKET: [v.pipe(v.string(), v.minLength(3)), undefined],
  GCS_API_ENDPOINT: [url, undefined],
  GCS_PROJECT_ID: [v.string(), undefined],
  SMTP_URL: [v.pipe(v.string(), v.regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')), undefined],
  MAIL_FROM: [v.pipe(v.string(), v.minLength(3)), 'Siglata <no-reply@siglata.com>'],
  LOG_LEVEL: [v.picklist(['debug', 'info', 'warn', 'error', 'silent']), 'info'],
  ALLOWED_ORIGINS: [v.string(), ''],
  TRUST_PROXY: [bool, 'false'],
  HTTP_HEADERS_TIMEOUT_MS: [int(100, 600_000), '20000'],
  HTTP_IDLE_TIMEOUT_MS: [int(100, 3600_000), '30000'],
  ENGINE_POOL_SIZE: [int(1, 64), String(availableParallelism())],
  ENGINE_MAX_POOL_SIZE: [int(1, 128), String(2 * availableParallelism())],
  ENGINE_MAX_RUNNING_PER_ORG: [int(1, 128), String(Math.max(1, Math.floor(availableParallelism() / 2)))],
  ENGINE_QUEUE_MAX: [int(0, 100000), String(4 * availableParallelism())],
  ENGINE_QUEUE_WAIT_MS: [int(0, 600000), '2000'],
  ENGINE_HOSTS: [int(0, 64), String(availableParallelism())],
  ENGINE_HOST_MEMORY_MB: [int(0, 1024 * 1024), '0'],
  ENGINE_PIN_HOSTS: [bool, 'true'],
  ENGINE_RESERVED_SLOTS: [int(0, 128), String(Math.max(1, Math.floor(availableParallelism() / 2)))],
  SCRIPT_MAX_SOURCE_BYTES: [int(1, 10 * 1024 * 1024), '102400'],
  SCRIPT_MEMORY_MB: [int(8, 4096), '64'],
  SCRIPT_WALL_MS: [int(10, 30000), '5000'],
  SCRIPT_CPU_MS: [int(10, 30000), '5000'],
  SCRIPT_MAX_HOST_CALLS: [int(1, 1000000), '1000'],
  SCRIPT_MAX_IN_FLIGHT: [int(1, 1000), '16'],
  SCRIPT_MAX_ARG_BYTES: [int(64, 64 * 1024 * 1024), '262144'],
  SCRIPT_MAX_RESULT_BYTES: [int(64, 64 * 1024 * 1024), '1048576'],
  SCRIPT_MAX_LOG_BYTES: [int(64, 64 * 1024 * 1024), '65536'],
  SCRIPT_MAX_LOG_LINES: [int(1, 100000), '200'],
  QUOTA_BYTES: [int(0), String(10 * 1024 ** 3)],
  UPLOAD_TTL_HOURS: [int(1, 24 * 365), '24'],
  TRASH_RETENTION_DAYS: [int(1, 3650), '30'],
  TEXT_FILE_MAX_BYTES: [int(1, 64 * 1024 * 1024), '1048576'],
  ARCHIVE_MAX_ENTRIES: [int(1, 1_000_000), '10000'],
  ARCHIVE_MAX_EXPANDED_BYTES: [int(0), String(10 * 1024 ** 3)],
  ARCHIVE_MAX_ENTRY_RATIO: [int(1, 1_000_000), '200'],
  ARCHIVE_MAX_RATIO: [int(1, 1_000_000), '200'],
  ARCHIVE_MAX_PATH_CHARS: [int(1, 255), '255'],
  EXPORT_TTL_MINUTES: [int(1, 7 * 24 * 60), '60'],
  ORG_CREATE_PER_HOUR: [int(1, 100_000), '5'],
  ORG_CREATE_MAX_PER_PERSON: [int(1, 1_000_000), '25'],
  RATE_LIMIT_STORE: [v.picklist(['memory', 'postgres']), 'memory'],
  RATE_LIMIT_MAX: [int(1), '120'],
  RATE_LIMIT_WINDOW_SECONDS: [int(1), '60'],
  ACCESS_TOKEN_TTL_SECONDS: [int(60, 86400), '3600'],
  SESSION_TTL_DAYS: [int(1, 365), '7'],
  JSON_BODY_MAX_BYTES: [int(1024, 64 * 1024 * 1024), '1048576'],
  DRAIN_TIMEOUT_MS: [int(0, 3600_000), '25000'],
  METRICS_TOKEN: [v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters')), undefined],
  METRICS_PORT: [int(0, 65535), undefined],
  METRICS_HOST: [v.pipe(v.string(), v.minLength(1)), '127.0.0.1'],
  METRICS_ORG_LABELS: [int(0, 1000), '0'],
} as const satisfies Record<string, readonly [v.GenericSchema<string, unknown>, string | undefined]>;

export type EnvName = keyof typeof ENV_SPEC;

function buildConfig(env: Record<EnvName, any>) {
  const port: number = env.PORT;
  const host: string = env.HOST;
  const publicBaseUrl = (env.PUBLIC_BASE_URL as string | undefined)?.replace(/\/+$/, '') ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const dataDir = resolve(env.DATA_DIR as string);
  const allowedOrigins = (env.ALLOWED_ORIGINS as string)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    port,
    host,
    publicBaseUrl,
    dataDir,
    databaseUrl: env.DATABASE_URL as string | undefined,
    databasePoolMax: env.DATABASE_POOL_MAX as number,
    blobStore: env.BLOB_STORE as 'fs' | 'gcs',
    gcs: {
      bucket: env.GCS_BUCKET as string | undefined,
      apiEndpoint: env.GCS_API_ENDPOINT as string | undefined,
      projectId: env.GCS_PROJECT_ID as string | undefined,
    },
    smtpUrl: env.SMTP_URL as string | undefined,
    mailFrom: env.MAIL_FROM as string,
    logLevel: env.LOG_LEVEL as 'debug' | 'info' | 'warn' | 'error' | 'silent',
    /** The public base URL's origin is always allowed. */
    allowedOrigins: [...new Set([new URL(publicBaseUrl).origin, ...allowedOrigins])],
    trustProxy: env.TRUST_PROXY as boolean,
    http: {
      /** Longest wait for a request's headers. */
      headersMs: env.HTTP_HEADERS_TIMEOUT_MS as number,
      /** Longest a request body or a response may stall while the server waits on the client (idle, not total). */
      idleMs: env.HTTP_IDLE_TIMEOUT_MS as number,
    },
    engine: {
      poolSize: env.ENGINE_POOL_SIZE as number,
      maxPoolSize: Math.max(env.ENGINE_POOL_SIZE as number, env.ENGINE_MAX_POOL_SIZE as number),
      maxRunningPerTenant: env.ENGINE_MAX_RUNNING_PER_ORG as number,
      queueMax: env.ENGINE_QUEUE_MAX as number,
      queueWaitMs: env.ENGINE_QUEUE_WAIT_MS as number,
      hosts: env.ENGINE_HOSTS as number,
      hostMemoryMb: env.ENGINE_HOST_MEMORY_MB as number,
      pinHosts: env.ENGINE_PIN_HOSTS as boolean,
      reservedSlots: env.ENGINE_RESERVED_SLOTS as number,
      maxSourceBytes: env.SCRIPT_MAX_SOURCE_BYTES as number,
      memoryMb: env.SCRIPT_MEMORY_MB as number,
      wallMs: env.SCRIPT_WALL_MS as number,
      cpuMs: env.SCRIPT_CPU_MS as number,
      maxHostCalls: env.SCRIPT_MAX_HOST_CALLS as number,
      maxInFlight: env.SCRIPT_MAX_IN_FLIGHT as number,
      maxArgBytes: env.SCRIPT_MAX_ARG_BYTES as number,
      maxResultBytes: env.SCRIPT_MAX_RESULT_BYTES as number,
      maxLogBytes: env.SCRIPT_MAX_LOG_BYTES as number,
      maxLogLines: env.SCRIPT_MAX_LOG_LINES as number,
    },
    quotaBytes: env.QUOTA_BYTES as number,
    uploadTtlMs: (env.UPLOAD_TTL_HOURS as number) * 3600_000,
    trashRetentionMs: (env.TRASH_RETENTION_DAYS as number) * 86400_000,
    textFileMaxBytes: env.TEXT_FILE_MAX_BYTES as number,
    organizationCreation: { perHour: env.ORG_CREATE_PER_HOUR as number, perPerson: env.ORG_CREATE_MAX_PER_PERSON as number },
    archive: {
      maxEntries: env.ARCHIVE_MAX_ENTRIES as number,
      maxExpandedBytes: env.ARCHIVE_MAX_EXPANDED_BYTES as number,
      maxEntryRatio: env.ARCHIVE_MAX_ENTRY_RATIO as number,
      maxRatio: env.ARCHIVE_MAX_RATIO as number,
      maxPathChars: env.ARCHIVE_MAX_PATH_CHARS as number,
      exportTtlMs: (env.EXPORT_TTL_MINUTES as number) * 60_000,
    },
    rateLimit: {
      store: env.RATE_LIMIT_STORE as 'memory' | 'postgres',
      max: env.RATE_LIMIT_MAX as number,
      windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS as number,
    },
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS as number,
    sessionTtlMs: (env.SESSION_TTL_DAYS as number) * 86400_000,
    jsonBodyMaxBytes: env.JSON_BODY_MAX_BYTES as number,
    drainTimeoutMs: env.DRAIN_TIMEOUT_MS as number,
    metrics: {
      /** Bearer secret for /metrics on the main port (unset: /metrics is not served there). */
      token: env.METRICS_TOKEN as string | undefined,
      /** A separate listener for /metrics (unset: none), on METRICS_HOST (loopback by default). */
      port: env.METRICS_PORT as number | undefined,
      host: env.METRICS_HOST as string,
      orgLabels: env.METRICS_ORG_LABELS as number,
    },
  };
}

export type Config = Readonly<ReturnType<typeof buildConfig>>;

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const value of Object.values(o)) deepFreeze(value);
    Object.freeze(o);
  }
  return o;
}

/** Parse the environment (process.env by default). Throws ConfigError naming every bad variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env, overrides: Partial<Record<EnvName, string>> = {}): Config {
  const problems: string[] = [];
  const env = {} as Record<EnvName, unknown>;
  for (const [name, [schema, fallback]] of Object.entries(ENV_SPEC) as [EnvName, readonly [v.GenericSchema<string, unknown>, string | undefined]][]) {
    const raw = overrides[name] ?? (source[name] === '' ? undefined : source[name]) ?? fallback;
    if (raw === undefined) continue;
    const parsed = v.safeParse(schema, raw);
    if (parsed.success) env[name] = parsed.output;
    else problems.push(`${name}=${JSON.stringify(raw)}: ${parsed.issues[0]?.message ?? 'invalid'}`);
  }
  if (env.BLOB_STORE === 'gcs' && !env.GCS_BUCKET) problems.push('GCS_BUCKET: required when BLOB_STORE=gcs');
  if (problems.length) throw new ConfigError(problems);
  return deepFreeze(buildConfig(env as Record<EnvName, any>));
}
