// context: who and where the script runs — the caller's organization, role, effective scopes and limits.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { ServiceError } from '../../errors.ts';
import { findOrganization } from '../../store/organizations.ts';
import { storageUsedBytes } from '../../services/usage.ts';
import { ROLES, SCOPES } from '../../identity/scopes.ts';

export const context = defineBinding({
  name: 'context',
  summary: "The caller's organization, role, effective scopes and usage limits.",
  pt: {
    summary: 'A organização, o papel, os escopos efetivos e os limites de uso de quem chama.',
    aliases: ['quem sou eu', 'meu papel', 'meus escopos', 'cota', 'uso', 'organização atual', 'permissões', 'espaço usado'],
  },
  description: 'Call it first to learn what the script may do: scopes decide which bindings succeed.',
  aliases: ['who am i', 'me', 'my role', 'my scopes', 'quota', 'usage', 'current organization', 'permissions'],
  examples: ['const { organization, role, scopes } = await context();\nreturn { organization: organization.slug, role, scopes };'],
  input: v.strictObject({}),
  output: v.object({
    organization: v.object({ id: v.string(), organizationId: v.string(), name: v.string(), slug: v.string() }),
    user: v.object({ id: v.string(), userId: v.string(), email: v.string() }),
    role: v.picklist(ROLES),
    scopes: v.array(v.picklist(SCOPES)),
    limits: v.object({
      storageQuotaBytes: v.number(),
      storageUsedBytes: v.number(),
      uploadPartBytes: v.number(),
      trashRetentionDays: v.number(),
    }),
  }),
  scope: null,
  writes: false,
  async handler(_input, { sql, caller, config }) {
    const membership = caller.membership!;
    const org = await findOrganization(sql, membership.orgId);
    if (!org) throw new ServiceError('not_found');
    return {
      organization: { id: org.id, organizationId: org.id, name: org.name, slug: org.slug },
      user: { id: caller.userId, userId: caller.userId, email: caller.email },
      role: membership.role,
      scopes: [...caller.scopes],
      limits: {
        storageQuotaBytes: config.quotaBytes,
        storageUsedBytes: await storageUsedBytes(sql, org.id),
        uploadPartBytes: 8 * 1024 * 1024,
        trashRetentionDays: Math.round(config.trashRetentionMs / 86400_000),
      },
    };
  },
});
