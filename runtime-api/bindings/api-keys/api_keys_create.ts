// api_keys_create: a long-lived, scoped, expiring organization API key for CI jobs and headless agents.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { SCOPES } from '../../identity/scopes.ts';
import { createApiKey, DEFAULT_API_KEY_DAYS, MAX_API_KEY_DAYS } from '../../identity/api-keys.ts';
import { ApiKeySchema } from './schemas.ts';

export const api_keys_create = defineBinding({
  name: 'api_keys_create',
  summary: 'Create an organization API key (a Bearer credential for CI and headless agents); the key is shown only in this result.',
  pt: {
    summary: 'Cria uma chave de API da organização (credencial Bearer para CI e agentes sem navegador); a chave aparece só neste resultado.',
    aliases: ['nova chave', 'criar chave', 'gerar chave', 'token de api', 'credencial'],
  },
  description: `Owner or admin only. \`scopes\` may not go beyond the caller's scopes within the organization's maxScopes (else 403 INSUFFICIENT_SCOPE); the key expires after \`expiresInDays\` (default ${DEFAULT_API_KEY_DAYS}, at most ${MAX_API_KEY_DAYS}). Send it as \`Authorization: Bearer slk_…\` to MCP, REST (/app/v1) and the transfer routes; it acts as its creator, is rate-limited on its own, and stops working when revoked, expired, or when its creator leaves the organization. Only its SHA-256 is stored: a lost key cannot be shown again, create a new one. An API key cannot create keys.`,
  examples: [
    'const k = await api_keys_create({ name: "ci-nightly", scopes: ["files:read", "files:write"], expiresInDays: 30 });\nreturn { keyId: k.keyId, expiresAt: k.expiresAt };',
  ],
  input: v.strictObject({
    name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100)),
    scopes: v.pipe(v.array(v.picklist(SCOPES)), v.minLength(1), v.maxLength(SCOPES.length)),
    expiresInDays: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_API_KEY_DAYS))),
  }),
  output: v.object({ ...ApiKeySchema.entries, key: v.string() }),
  scope: 'org:admin',
  writes: true,
  async handler(input, { sql, clock, caller }) {
    return createApiKey(sql, clock, caller, input);
  },
});
