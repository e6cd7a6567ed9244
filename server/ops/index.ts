// The operations layer of an app: its lifecycle (drain) and its metrics, attached to the dependencies once. The
// engine handed to the routes is wrapped so that every execution is counted and none starts while draining.
import type { Sql } from 'postgres';
import type { Config } from '../config.ts';
import type { Engine } from '../../engine/index.ts';
import { Lifecycle } from './lifecycle.ts';
import { Metrics } from './metrics.ts';

export interface Ops {
  lifecycle: Lifecycle;
  metrics: Metrics;
}

/** What the operations layer reads of an app's dependencies (the app's own type depends on `Ops`, not the reverse). */
interface OpsInputs {
  sql: Sql;
  config: Pick<Config, 'databasePoolMax' | 'metrics'>;
  engine: Engine;
  ops?: Ops;
}

export function withOps<D extends OpsInputs>(deps: D): D & { ops: Ops } {
  if (deps.ops) return deps as D & { ops: Ops };
  const lifecycle = new Lifecycle();
  const metrics = new Metrics({ sql: deps.sql, poolMax: deps.config.databasePoolMax, orgLabels: deps.config.metrics.orgLabels });
  return { ...deps, engine: lifecycle.guardEngine(metrics.observeEngine(deps.engine)), ops: { lifecycle, metrics } };
}
