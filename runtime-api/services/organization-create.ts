// Creating an organization, bounded per person: every organization brings budgets of its own (storage quota, a
// share of the engine), so an unbounded supply of them would let one person buy capacity by the dozen. Counted by
// creator (organizations.created_by), so handing an organization to someone else does not free a place.
// The count and the insert run in one transaction under a lock per person: two creates at the limit, on any
// instances, never both pass.
import type { Sql } from 'postgres';
import type { Clock } from '../clock.ts';
import type { RuntimeConfig } from '../runtime-config.ts';
import { inTransaction } from '../store/files.ts';
import { insertOrganization, organizationsCreatedBy, type NewOrganization, type OrganizationRow } from '../store/organizations.ts';
import { organizationLimitReached, organizationsTooFast } from './organization-messages.ts';

const HOUR_MS = 3600_000;

export async function createOrganizationFor(
  deps: { sql: Sql; clock: Clock; config: RuntimeConfig },
  input: Omit<NewOrganization, 'createdAt'>,
): Promise<OrganizationRow> {
  const { perHour, perPerson } = deps.config.organizationCreation;
  return inTransaction(deps.sql, async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtextextended(${`organization_create:${input.ownerId}`}, 0))`;
    const now = deps.clock.now();
    const made = await organizationsCreatedBy(tx, input.ownerId, new Date(now.getTime() - HOUR_MS));
    if (made.total >= perPerson) throw organizationLimitReached(perPerson, made.total);
    if (made.recent >= perHour) {
      const retryAfter = Math.max(1, Math.ceil(((made.oldestRecent?.getTime() ?? now.getTime()) + HOUR_MS - now.getTime()) / 1000));
      throw organizationsTooFast(perHour, HOUR_MS / 1000, retryAfter);
    }
    return insertOrganization(tx, { ...input, createdAt: now });
  });
}
