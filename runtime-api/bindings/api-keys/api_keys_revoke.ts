// api_keys_revoke: end an API key at once (its next request is 401); revoking twice keeps the first date.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { revokeKey } from '../../identity/api-keys.ts';
import { ApiKeyIdSchema, ApiKeySchema } from './schemas.ts';

export const api_keys_revoke = defineBinding({
  name: 'api_keys_revoke',
  summary: 'Revoke an organization API key; requests with it are refused from then on.',
  pt: {
    summary: 'Revoga uma chave de API da organização; requisições com ela passam a ser recusadas.',
    aliases: ['revogar chave', 'apagar chave', 'desativar chave', 'cancelar chave'],
  },
  description: 'A key of another organization, or an unknown id, is 404 not_found.',
  examples: ['const [old] = (await api_keys_list({})).items.filter((k) => k.name === "ci-nightly");\nif (old) await api_keys_revoke({ keyId: old.keyId });'],
  input: v.strictObject({ keyId: ApiKeyIdSchema }),
  output: ApiKeySchema,
  scope: 'org:admin',
  writes: true,
  async handler(input, { sql, clock, caller }) {
    return revokeKey(sql, clock, caller, input.keyId);
  },
});
