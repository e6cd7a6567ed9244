// Valibot schemas of the API key bindings (one source for checks, typings and OpenAPI).
import * as v from 'valibot';
import { SCOPES } from '../../identity/scopes.ts';

export const ApiKeySchema = v.object({
  id: v.pipe(v.string(), v.description('Key id (`key_…`); the same as `keyId`. Not the secret.')),
  keyId: v.string(),
  name: v.string(),
  scopes: v.array(v.picklist(SCOPES)),
  state: v.picklist(['active', 'expired', 'revoked']),
  createdBy: v.string(),
  createdAt: v.string(),
  expiresAt: v.string(),
  revokedAt: v.nullable(v.string()),
  lastUsedAt: v.nullable(v.string()),
});

export const ApiKeyIdSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(128));
