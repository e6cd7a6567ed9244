// The engine's strike ledger in PostgreSQL (engine/sandbox-process/quarantine.ts StrikeLedger): host deaths blamed on an
// organization or a person, written by the instance that saw them and read back by every instance.
import type { Sql } from 'postgres';
import type { Strike, StrikeLedger } from '../../engine/index.ts';

export function engineStrikeLedger(sql: Sql): StrikeLedger {
  return {
    async record(strikes: readonly Strike[]): Promise<void> {
      if (!strikes.length) return;
      const rows = strikes.map((s) => ({ id: s.id, principal: s.principal, at: new Date(s.at) }));
      await sql`insert into engine_strikes ${sql(rows, 'id', 'principal', 'at')} on conflict (id) do nothing`;
    },
    async recent(sinceMs: number): Promise<Strike[]> {
      const rows = await sql`select id, principal, at from engine_strikes where at >= ${new Date(sinceMs)} order by at, id`;
      return rows.map((r) => ({ id: r.id as string, principal: r.principal as string, at: (r.at as Date).getTime() }));
    },
    async prune(beforeMs: number): Promise<void> {
      await sql`delete from engine_strikes where at < ${new Date(beforeMs)}`;
    },
  };
}
