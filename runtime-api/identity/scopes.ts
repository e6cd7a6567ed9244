// Scope names and the scopes each organization role carries (design.md section 5).

export const SCOPES = ['files:read', 'files:write', 'org:read', 'org:admin'] as const;
export type Scope = (typeof SCOPES)[number];
/** Grantable to OAuth clients: the resource scopes plus `offline_access` for refresh tokens. */
export const GRANTABLE_SCOPES = [...SCOPES, 'offline_access'] as const;

export const ROLES = ['member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  member: ['files:read', 'files:write', 'org:read'],
  admin: SCOPES,
  owner: SCOPES,
};

export function roleScopes(role: Role): readonly Scope[] {
  return ROLE_SCOPES[role];
}

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Parse a space-separated scope string, keeping only known resource scopes, deduplicated and ordered. */
export function parseScopes(value: string | readonly string[]): Scope[] {
  const words = typeof value === 'string' ? value.split(/\s+/) : value;
  return SCOPES.filter((s) => words.includes(s));
}

/** Effective scopes = requested ∩ role ∩ ceiling (the organization's MCP maxScopes for token callers). */
export function effectiveScopes(role: Role, requested: readonly string[], ceiling: readonly string[] = SCOPES): Scope[] {
  const fromRole = roleScopes(role);
  return SCOPES.filter((s) => fromRole.includes(s) && requested.includes(s) && ceiling.includes(s));
}

export function isAdminRole(role: Role): boolean {
  return role === 'owner' || role === 'admin';
}
