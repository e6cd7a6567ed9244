// The PostgreSQL handle (porsager/postgres). int8 columns (byte counts up to 10 GiB and beyond) come back as numbers.
import postgres from 'postgres';
import type { Sql } from 'postgres';
import { trackPoolUsage } from './pool-usage.ts';

export type { Sql };

export interface ConnectOptions {
  max?: number;
  /** Name shown in pg_stat_activity. */
  applicationName?: string;
}

/** The handle, its pool's use counted (store/pool-usage.ts) for the metrics. */
export function connect(url: string, options: ConnectOptions = {}): Sql {
  const max = options.max ?? 10;
  return trackPoolUsage(
    postgres(url, {
      max,
      idle_timeout: 30,
      connect_timeout: 10,
      onnotice: () => {},
      connection: { application_name: options.applicationName ?? 'siglata' },
      types: {
        bigint: {
          to: 20,
          from: [20],
          serialize: (x: number | bigint) => String(x),
          parse: (x: string) => Number(x),
        },
      },
    }),
    max,
  );
}
