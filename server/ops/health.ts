// GET /health/live and GET /health/ready: unauthenticated, cheap probes for a load balancer or orchestrator.
// Live says the process answers; ready says this instance should get traffic: the database answers, every
// migration is applied, the engine has isolates, and the instance is not draining.
import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../http/route.ts';
import type { AppDeps } from '../deps.ts';
import type { Lifecycle } from './lifecycle.ts';
import { listMigrations } from '../../runtime-api/index.ts';

const CHECK_TIMEOUT_MS = 1000;
const Check = v.picklist(['ok', 'failed']);
export const ReadinessSchema = v.object({
  status: v.picklist(['ready', 'not_ready']),
  checks: v.object({ database: Check, migrations: Check, engine: Check, draining: v.boolean() }),
});
const LivenessSchema = v.object({ status: v.literal('ok') });

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export function healthRoutes(deps: AppDeps, lifecycle: Lifecycle | undefined): RouteDef[] {
  let latestMigration: Promise<number> | null = null;
  async function readiness(): Promise<v.InferOutput<typeof ReadinessSchema>> {
    latestMigration ??= listMigrations().then((all) => Math.max(0, ...all.map((m) => m.version)));
    const [database, migrations] = await Promise.all([
      withTimeout(deps.sql`select 1`, CHECK_TIMEOUT_MS).then(
        () => 'ok' as const,
        () => 'failed' as const,
      ),
      withTimeout(deps.sql<{ v: number | null }[]>`select max(version) as v from schema_migrations`, CHECK_TIMEOUT_MS).then(
        async ([row]) => ((row?.v ?? 0) >= (await latestMigration!) ? ('ok' as const) : ('failed' as const)),
        () => 'failed' as const,
      ),
    ]);
    let engine: 'ok' | 'failed' = 'failed';
    try {
      const s = deps.engine.stats();
      if (s.poolSize === 0 || s.slots.ready + s.slots.busy + s.slots.starting > 0) engine = 'ok';
    } catch {
      /* closed */
    }
    const draining = lifecycle?.draining ?? false;
    const ready = database === 'ok' && migrations === 'ok' && engine === 'ok' && !draining;
    return { status: ready ? 'ready' : 'not_ready', checks: { database, migrations, engine, draining } };
  }
  return [
    defineRoute({
      method: 'GET',
      path: '/health/live',
      operationId: 'getLiveness',
      tags: ['operations'],
      auth: 'none',
      summary: 'Liveness: the process answers (no dependency is checked)',
      description:
        'Always 200 while the process serves HTTP, draining included. Restart the instance when it stops answering. Probes count against the per-address rate limit like any request.',
      responses: { 200: { description: 'The process is alive.', schema: LivenessSchema } },
      errors: [],
      handle(ctx) {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { status: 'ok' };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/health/ready',
      operationId: 'getReadiness',
      tags: ['operations'],
      auth: 'none',
      summary: 'Readiness: whether this instance should receive traffic',
      description:
        'Checks that PostgreSQL answers (within 1 s), that every migration is applied, that the script engine has isolates, ' +
        'and that the instance is not draining. 503 with the same body when any check fails; it turns 503 at once on SIGTERM.',
      responses: {
        200: { description: 'Ready for traffic.', schema: ReadinessSchema },
        503: { description: 'Not ready (a check failed, or the instance is draining); `checks` says which.', schema: ReadinessSchema },
      },
      errors: [],
      async handle(ctx) {
        const body = await readiness();
        ctx.set('Cache-Control', 'no-store');
        ctx.status = body.status === 'ready' ? 200 : 503;
        ctx.body = body;
      },
    }),
  ];
}
