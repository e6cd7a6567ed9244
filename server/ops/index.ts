// The operations layer of an app: its lifecycle (drain) and its metrics, attached to the dependencies once. The
// engine handed to the routes is wrapped so that every execution is counted and none starts while draining.
import type { AppDeps } from '../deps.ts';
import { Lifecycle } from './lifecycle.ts';
import { Metrics } from './metrics.ts';

export interface Ops {
  lifecycle: Lifecycle;
  metrics: Metrics;
}

export function withOps(deps: AppDeps): AppDeps & { ops: Ops } {
  if (deps.ops) return deps as AppDeps & { ops: Ops };
  const lifecycle = new Lifecycle();
  const metrics = new Metrics({ sql: deps.sql, poolMax: deps.config.databasePoolMax, orgLabels: deps.config.metrics.orgLabels });
  return { ...deps, engine: lifecycle.guardEngine(metrics.observeEngine(deps.engine)), ops: { lifecycle, metrics } };
}
