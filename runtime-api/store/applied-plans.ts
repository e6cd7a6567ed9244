// Applied plan tokens (migration 0015): recorded in the apply's own transaction, looked up before an apply runs.
import type { Sql } from 'postgres';

export interface AppliedPlan {
  writes: number;
  appliedAt: Date;
}

export interface AppliedPlanKey {
  /** SHA-256 of the plan token. */
  id: string;
  orgId: string;
  userId: string;
}

/** The record of this token's apply by this organization and user, if it was applied. */
export async function findAppliedPlan(sql: Sql, key: AppliedPlanKey): Promise<AppliedPlan | null> {
  const [row] = await sql`
    select writes, applied_at from applied_plans where id = ${key.id} and org_id = ${key.orgId} and user_id = ${key.userId}`;
  return row ? { writes: row.writes as number, appliedAt: row.applied_at as Date } : null;
}

/**
 * Records the apply inside its transaction; returns null when this is the first, else the earlier apply (a
 * concurrent one waits on the key until the first commits or rolls back).
 */
export async function recordAppliedPlan(sql: Sql, key: AppliedPlanKey, writes: number, at: Date): Promise<AppliedPlan | null> {
  const inserted = await sql`
    insert into applied_plans (id, org_id, user_id, writes, applied_at)
    values (${key.id}, ${key.orgId}, ${key.userId}, ${writes}, ${at})
    on conflict (id) do nothing
    returning id`;
  if (inserted.length) return null;
  const [row] = await sql`select writes, applied_at from applied_plans where id = ${key.id}`;
  return { writes: row.writes as number, appliedAt: row.applied_at as Date };
}

/** Forget applies made before `before`. */
export async function purgeAppliedPlans(sql: Sql, before: Date): Promise<number> {
  const rows = await sql`delete from applied_plans where applied_at < ${before} returning id`;
  return rows.length;
}
