// The PostgreSQL handle (porsager/postgres). int8 columns (byte counts up to 10 GiB and beyond) come back as numbers.
import postgres from 'postgres';
import type { Sql } from 'postgres';

export type { Sql };

export interface ConnectOptions {
  max?: number;
  /** Name shown in pg_stat_activity. */
  applicationName?: string;
}

export function connect(url: string, options: ConnectOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
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
  });
}
