// Prometheus metrics (prom-client), one registry per app: HTTP requests by route template, executions by outcome,
// the engine's own stats (every numeric field of engine.stats(), so new fields appear without code here), bytes
// moved by transfers, rate-limit refusals, the database pool and the audit-log queue. Labels are bounded: route
// templates not paths, engine error types, and organizations only when opted in, at most N of them.
import type Koa from 'koa';
import type { Sql } from 'postgres';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Engine, ExecutionResult } from '../../engine/index.ts';
import { auditLogFor, poolUsage } from '../../runtime-api/index.ts';

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Label names for the engine stats' records (anything else is labelled `key`). */
const RECORD_LABELS: Record<string, string> = { slots: 'state', recycled: 'reason', crashes: 'reason', crashed: 'reason', hosts: 'state' };
/** Keys of one stats record given their own label; the rest are summed as `other` (a record keyed by tenant stays bounded). */
export const MAX_RECORD_KEYS = 32;
const UPLOAD_OPS = new Set(['putUploadPart']);
const DOWNLOAD_OPS = new Set(['downloadFile']);

const snake = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^a-zA-Z0-9_]/g, '_')
    .toLowerCase();
const label = (s: unknown, fallback = 'other') => (typeof s === 'string' && /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/.test(s) ? s : fallback);

export interface MetricsOptions {
  sql: Sql;
  poolMax: number;
  /** Organizations given their own label (first come); the rest count as `other`. 0: no organization label. */
  orgLabels: number;
}

export class Metrics {
  readonly registry = new Registry();
  #engine: Engine | null = null;
  readonly #orgs = new Set<string>();
  readonly #orgLimit: number;
  /** Reads the pool's use into its gauges; run before any collector (see text()). */
  readonly #samplePool: () => void;

  readonly httpRequests = new Counter({
    name: 'siglata_http_requests_total',
    help: 'HTTP requests by route template, method and status.',
    labelNames: ['route', 'method', 'status'],
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'siglata_http_request_duration_seconds',
    help: 'Time from request to the last byte of the response, by route template and method.',
    labelNames: ['route', 'method'],
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'siglata_rate_limit_refusals_total',
    help: 'Requests refused with 429 rate_limited.',
    registers: [this.registry],
  });
  readonly drainRefusals = new Counter({
    name: 'siglata_drain_refusals_total',
    help: 'Requests refused with 503 draining while the instance shuts down.',
    registers: [this.registry],
  });
  readonly executions = new Counter({
    name: 'siglata_executions_total',
    help: 'Script executions by outcome (ok, error) and error type.',
    labelNames: ['outcome', 'error_type'],
    registers: [this.registry],
  });
  readonly execWall = new Histogram({
    name: 'siglata_execution_wall_seconds',
    help: 'Wall time of executions (queue excluded).',
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly execCpu = new Histogram({ name: 'siglata_execution_cpu_seconds', help: 'CPU time of executions.', buckets: SECONDS, registers: [this.registry] });
  readonly execQueue = new Histogram({
    name: 'siglata_execution_queue_seconds',
    help: 'Time executions waited for an isolate.',
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly orgExecutions = new Counter({
    name: 'siglata_org_executions_total',
    help: 'Executions per organization (opt-in: METRICS_ORG_LABELS bounds how many get their own label; the rest are "other").',
    labelNames: ['org'],
    registers: [this.registry],
  });
  readonly transferBytes = new Counter({
    name: 'siglata_transfer_bytes_total',
    help: 'Bytes accepted by part uploads and sent by downloads.',
    labelNames: ['direction'],
    registers: [this.registry],
  });
  readonly partDuration = new Histogram({
    name: 'siglata_upload_part_duration_seconds',
    help: 'Time to receive, verify and store one upload part.',
    labelNames: ['status'],
    buckets: SECONDS,
    registers: [this.registry],
  });

  constructor(options: MetricsOptions) {
    this.#orgLimit = options.orgLabels;
    collectDefaultMetrics({ register: this.registry, prefix: 'siglata_' });
    const sql = options.sql;
    new Gauge({
      name: 'siglata_db_pool_max',
      help: 'Connections this instance may open to PostgreSQL (DATABASE_POOL_MAX).',
      registers: [this.registry],
      collect() {
        this.set(options.poolMax);
      },
    });
    const inUse = new Gauge({
      name: 'siglata_db_pool_in_use',
      help: "Connections of this instance's pool in use at the start of the scrape: held by a transaction or reservation, or running a plain query (plain queries pipelined beyond the pool size count as waiting, so this never exceeds siglata_db_pool_max).",
      registers: [this.registry],
    });
    const waiting = new Gauge({
      name: 'siglata_db_pool_waiting',
      help: "Requests waiting for a connection of this instance's pool at the start of the scrape: transactions and reservations not yet given one, plus plain queries beyond the pool size (queued in the pool or pipelined behind another query).",
      registers: [this.registry],
    });
    // Sampled before any collector runs, so the scrape's own pg_stat_activity query is not counted.
    let pool: ReturnType<typeof poolUsage>;
    this.#samplePool = () => {
      pool = poolUsage(sql);
      if (pool) {
        inUse.set(pool.inUse);
        waiting.set(pool.waiting);
      }
    };
    new Gauge({
      name: 'siglata_db_connections',
      help: "Connections of this database with our application name, by state (active = in use; idle; idle in transaction), across instances. Absent from a scrape taken while this instance's pool is full.",
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        // With no free connection the query would wait behind the very work that fills the pool and stall the scrape.
        if (pool && (pool.inUse >= pool.max || pool.waiting > 0)) return;
        const rows = await sql<{ state: string | null; n: number }[]>`select state, count(*)::int as n from pg_stat_activity
          where datname = current_database() and application_name = current_setting('application_name') and pid <> pg_backend_pid() group by state`.catch(
          () => [],
        );
        for (const r of rows) this.set({ state: label(r.state?.replace(/ /g, '_'), 'unknown') }, r.n);
      },
    });
    new Gauge({
      name: 'siglata_audit_log_queue',
      help: 'Execution audit rows waiting to be written.',
      registers: [this.registry],
      collect() {
        this.set(auditLogFor(sql).pending);
      },
    });
    new Gauge({
      name: 'siglata_audit_log_failed_batches',
      help: 'Audit-log batches that failed to write since start.',
      registers: [this.registry],
      collect() {
        this.set(auditLogFor(sql).failedBatches);
      },
    });
  }

  /**
   * Counts every request when its response ends, labelled by its route template (never the raw path). `routeOf`
   * names the template of a request answered before routing (a 401 or 429 from the global middleware).
   */
  http(routeOf: (ctx: Koa.Context) => string | undefined = () => undefined): Koa.Middleware {
    return async (ctx, next) => {
      const started = performance.now();
      ctx.res.once('close', () => {
        const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? routeOf(ctx) ?? '(unmatched)';
        const status = ctx.res.statusCode;
        const method = label(ctx.method, 'OTHER');
        const seconds = (performance.now() - started) / 1000;
        this.httpRequests.inc({ route, method, status: String(status) });
        this.httpDuration.observe({ route, method }, seconds);
        if (status === 429) this.rateLimited.inc();
        if (status === 503 && (ctx.body as { error?: { code?: string } } | null)?.error?.code === 'draining') this.drainRefusals.inc();
        const op = ctx.routerName;
        if (op && UPLOAD_OPS.has(op)) {
          this.partDuration.observe({ status: String(status) }, seconds);
          if (status === 200) this.transferBytes.inc({ direction: 'upload' }, Number(ctx.get('content-length')) || 0);
        }
        if (op && DOWNLOAD_OPS.has(op) && (status === 200 || status === 206) && ctx.res.writableFinished) {
          this.transferBytes.inc({ direction: 'download' }, Number(ctx.response.get('content-length')) || 0);
        }
      });
      await next();
    };
  }

  /** The engine, observed: every execution's outcome and times; its stats become gauges at each scrape. */
  observeEngine(engine: Engine): Engine {
    this.#engine = engine;
    return {
      ...engine,
      execute: async (request) => {
        const result = await engine.execute(request);
        this.#recordExecution(result, request.tenant);
        return result;
      },
      ready: () => engine.ready(),
      stats: () => engine.stats(),
      close: () => engine.close(),
    };
  }

  #recordExecution(result: ExecutionResult, tenant: string | undefined): void {
    this.executions.inc({ outcome: result.ok ? 'ok' : 'error', error_type: result.ok ? '' : label(result.error?.type) });
    this.execWall.observe(result.stats.wallMs / 1000);
    this.execCpu.observe(result.stats.cpuMs / 1000);
    this.execQueue.observe(result.stats.queueMs / 1000);
    if (this.#orgLimit > 0 && tenant) {
      if (!this.#orgs.has(tenant) && this.#orgs.size < this.#orgLimit) this.#orgs.add(tenant);
      this.orgExecutions.inc({ org: this.#orgs.has(tenant) ? label(tenant) : 'other' });
    }
  }

  /** Every number of engine.stats() as a gauge `siglata_engine_<field>`; a record of numbers gets one label. */
  #syncEngineStats(): void {
    if (!this.#engine) return;
    const stats = this.#engine.stats() as unknown as Record<string, unknown>;
    for (const [field, value] of Object.entries(stats)) {
      const name = `siglata_engine_${snake(field)}`;
      if (typeof value === 'number') {
        this.#gauge(name, `engine.stats().${field}`, []).set(value);
      } else if (value && typeof value === 'object' && Object.values(value).every((x) => typeof x === 'number')) {
        const key = RECORD_LABELS[field] ?? 'key';
        const gauge = this.#gauge(name, `engine.stats().${field} by ${key}`, [key]);
        gauge.reset();
        const entries = Object.entries(value as Record<string, number>).sort((a, b) => b[1] - a[1]);
        for (const [k, n] of entries.slice(0, MAX_RECORD_KEYS)) gauge.inc({ [key]: label(k) }, n);
        for (const [, n] of entries.slice(MAX_RECORD_KEYS)) gauge.inc({ [key]: 'other' }, n);
      }
    }
  }

  #gauge(name: string, help: string, labelNames: string[]): Gauge {
    return (this.registry.getSingleMetric(name) as Gauge | undefined) ?? new Gauge({ name, help, labelNames, registers: [this.registry] });
  }

  /** The exposition text. */
  async text(): Promise<string> {
    this.#syncEngineStats();
    this.#samplePool();
    return this.registry.metrics();
  }
}
