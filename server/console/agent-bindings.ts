// The agent-access bindings other changes add (mcp_access_get/set, api_keys_create/list/revoke), found by wire name
// in the registry: when one is absent on this server the console says so instead of failing, and it appears in
// the console as soon as it is registered. Their expected shapes are written down here, once.
import type { Binding } from '../../runtime-api/define.ts';
import { findBinding } from '../../runtime-api/registry.ts';
import { ServiceError, l10n } from '../../runtime-api/errors.ts';

export type McpAccessState = 'testing' | 'active' | 'revoked';
/** mcp_access_get({}) → McpAccess; mcp_access_set({state?, maxScopes?}) → McpAccess. */
export interface McpAccess { state: McpAccessState; maxScopes: string[] }
/** api_keys_list({}) → ApiKey[]; api_keys_create({name, scopes, expiresInDays?}) → ApiKey & {key}; api_keys_revoke({keyId}). */
export interface ApiKey {
  id: string; name: string; scopes: string[]; state: 'active' | 'expired' | 'revoked';
  createdAt: string; expiresAt: string; revokedAt: string | null; lastUsedAt: string | null;
}

export type AgentBindingName = 'mcp_access_get' | 'mcp_access_set' | 'api_keys_create' | 'api_keys_list' | 'api_keys_revoke';

export function agentBinding(name: AgentBindingName): Binding | null {
  return findBinding(name) ?? null;
}

export function requireAgentBinding(name: AgentBindingName): Binding {
  const binding = agentBinding(name);
  if (!binding) {
    throw new ServiceError('not_found', { resolution: l10n(`This server does not offer ${name} yet.`, `Este servidor ainda não oferece ${name}.`) });
  }
  return binding;
}
