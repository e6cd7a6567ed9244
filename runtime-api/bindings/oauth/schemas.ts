// Valibot schemas of the OAuth grant bindings.
import * as v from 'valibot';

export const GrantSchema = v.object({
  id: v.pipe(v.string(), v.description('Grant id; the same as `grantId`.')),
  grantId: v.string(),
  clientId: v.string(),
  clientName: v.nullable(v.string()),
  userEmail: v.pipe(v.string(), v.description('Who consented.')),
  scopes: v.array(v.string()),
  createdAt: v.string(),
  lastUsedAt: v.pipe(v.nullable(v.string()), v.description('Latest token refresh or script execution through this grant; null if none yet.')),
});

export const GrantIdSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(128));
