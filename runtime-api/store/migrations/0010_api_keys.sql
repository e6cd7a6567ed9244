-- Organization API keys for CI jobs and headless agents: long-lived, scoped, expiring, revocable Bearer
-- credentials. Only the SHA-256 of the secret is kept (the key is shown once, at creation); a key acts as the
-- member who created it, so it stops working when that member leaves or loses the role behind its scopes.
create table api_keys (
  id text primary key,
  org_id text not null references organizations(id) on delete cascade,
  created_by text not null references users(id) on delete cascade,
  name text not null,
  scopes text[] not null,
  secret_hash text not null unique,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  revoked_at timestamptz,
  last_used_at timestamptz
);
create index api_keys_org on api_keys (org_id, created_at desc);
