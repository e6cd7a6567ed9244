// api_keys_list: the organization's API keys with their state and last use (never the secret).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { apiKeysOf } from '../../services/api-keys.ts';
import { ApiKeySchema } from './schemas.ts';

export const api_keys_list = defineBinding({
  name: 'api_keys_list',
  summary: 'List the organization\'s API keys, newest first, with state (active, expired, revoked) and last use.',
  examples: ['const keys = await api_keys_list({});\nreturn keys.filter((k) => k.state === "active").map((k) => `${k.name}: ${k.lastUsedAt ?? "never used"}`);'],
  input: v.strictObject({}),
  output: v.array(ApiKeySchema),
  scope: 'org:admin',
  writes: false,
  async handler(_input, { sql, clock, caller }) {
    return apiKeysOf(sql, clock, caller);
  },
});
