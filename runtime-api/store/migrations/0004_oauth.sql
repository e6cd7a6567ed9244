-- OAuth 2.1 authorization server for MCP clients: dynamically registered public clients, grants (one per
-- consent: the token family that revocation and replay detection act on), single-use authorization codes and
-- rotating refresh tokens. Secrets (codes, refresh tokens) are stored only as their SHA-256 (hex); times come
-- from the application's clock so that expiry is testable.

create table oauth_clients (
  client_id text primary key,
  client_name text,
  redirect_uris text[] not null,
  grant_types text[] not null,
  response_types text[] not null,
  -- Public clients only: PKCE (S256) is their proof of possession.
  token_endpoint_auth_method text not null default 'none' check (token_endpoint_auth_method = 'none'),
  application_type text not null default 'native' check (application_type in ('native', 'web')),
  scope text,
  -- The other RFC 7591 members the client sent (client_uri, logo_uri, software_id, ...), echoed back.
  metadata jsonb not null default '{}'::jsonb,
  created_at timestamptz not null
);

create table oauth_grants (
  id text primary key,
  client_id text not null references oauth_clients(client_id) on delete cascade,
  user_id text not null references users(id) on delete cascade,
  org_id text not null references organizations(id) on delete cascade,
  -- Space-separated, as consented (resource scopes capped by role and maxScopes, plus offline_access).
  scope text not null,
  -- The RFC 8707 resource = the access tokens' audience ({base}/v1/mcp or {base}/mcp).
  resource text not null,
  created_at timestamptz not null,
  revoked_at timestamptz,
  revoked_reason text
);
create index oauth_grants_user_idx on oauth_grants (user_id);
create index oauth_grants_client_idx on oauth_grants (client_id);
create index oauth_grants_org_idx on oauth_grants (org_id);

create table oauth_codes (
  code_hash text primary key,
  grant_id text not null references oauth_grants(id) on delete cascade,
  client_id text not null,
  redirect_uri text not null,
  code_challenge text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  -- Set once by a conditional UPDATE: concurrent redemptions have exactly one winner; a later one is a replay.
  consumed_at timestamptz
);
create index oauth_codes_expires_idx on oauth_codes (expires_at);

create table oauth_refresh_tokens (
  token_hash text primary key,
  grant_id text not null references oauth_grants(id) on delete cascade,
  -- The token this one replaced (rotation chain), null for the first of a grant.
  parent_hash text,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  -- Set when rotated (or revoked); presenting a used token again revokes the whole grant (reuse detection).
  used_at timestamptz
);
create index oauth_refresh_tokens_grant_idx on oauth_refresh_tokens (grant_id);
create index oauth_refresh_tokens_expires_idx on oauth_refresh_tokens (expires_at);
