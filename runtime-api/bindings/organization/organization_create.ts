// organization_create: a new organization with the caller as its owner (a user-level action: no organization needed).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { createOrganizationFor } from '../../services/organization-create.ts';
import { slugTaken } from '../../services/organization-messages.ts';
import { MetadataSchema, NameSchema, SlugSchema, UserOrganizationSchema, organizationView, PERSONAL_NOTE } from './schemas.ts';

export const organization_create = defineBinding({
  name: 'organization_create',
  summary: 'Create an organization; the caller becomes its owner.',
  pt: {
    summary: 'Cria uma organização; quem chama se torna proprietário dela.',
    aliases: ['nova organização', 'novo espaço de trabalho', 'criar organização'],
  },
  description:
    'The slug is unique across the service (lower-case letters, digits and inner hyphens); a taken slug is 409 conflict. ' +
    'One person may create a bounded number of organizations: by default 5 in any rolling hour (past it: 429 rate_limited, with Retry-After and `retryAfterSeconds`) ' +
    `and 25 in all, counted by creator (past it: 403 organization_limit_reached). ${PERSONAL_NOTE}`,
  aliases: ['new organization', 'new workspace', 'create workspace'],
  examples: ['const org = await organization_create({ name: "Acme", slug: "acme" });\nreturn org.organizationId;'],
  input: v.strictObject({ name: NameSchema, slug: SlugSchema, metadata: v.optional(MetadataSchema) }),
  output: UserOrganizationSchema,
  scope: null,
  writes: true,
  needsOrganization: false,
  personal: true,
  async handler(input, { sql, clock, config, caller }) {
    try {
      const org = await createOrganizationFor({ sql, clock, config }, { name: input.name, slug: input.slug, ownerId: caller.userId, metadata: input.metadata });
      return { ...organizationView(org), role: 'owner' as const };
    } catch (err) {
      if ((err as { code?: unknown }).code === '23505') {
        throw slugTaken(input.slug, err);
      }
      throw err;
    }
  },
});
