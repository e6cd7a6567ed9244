// api_keys_list: the organization's API keys with their state and last use (never the secret), newest first.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { byCreation, listInputEntries, listOutput, pageOf } from '../../list-page.ts';
import { apiKeyView } from '../../identity/api-keys.ts';
import { listApiKeys } from '../../store/api-keys.ts';
import { ApiKeySchema } from './schemas.ts';

export const api_keys_list = defineBinding({
  name: 'api_keys_list',
  summary: "List the organization's API keys, newest first, with state (active, expired, revoked) and last use.",
  pt: {
    summary: 'Lista as chaves de API da organização, das mais novas às mais antigas, com estado (ativa, expirada, revogada) e último uso.',
    aliases: ['chaves', 'minhas chaves', 'chaves de api', 'credenciais'],
  },
  examples: [
    'const { items } = await api_keys_list({});\nreturn items.filter((k) => k.state === "active").map((k) => `${k.name}: ${k.lastUsedAt ?? "never used"}`);',
  ],
  input: v.strictObject({ ...listInputEntries() }),
  output: listOutput(ApiKeySchema, 'API keys'),
  scope: 'org:admin',
  writes: false,
  async handler(input, { sql, clock, caller }) {
    const now = clock.now();
    const rows = await listApiKeys(sql, caller.membership!.orgId);
    return pageOf('api_keys_list', rows, input, { key: byCreation, newestFirst: true }, (r) => apiKeyView(r, now));
  },
});
