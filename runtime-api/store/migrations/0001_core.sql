-- Core identity tables and the signing keys of access tokens.
create extension if not exists citext;

create table users (
  id text primary key,
  email citext not null unique,
  name text not null default '',
  image text,
  created_at timestamptz not null default now()
);

create table organizations (
  id text primary key,
  name text not null,
  slug text not null unique,
  metadata jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);

create table members (
  id text primary key,
  org_id text not null references organizations(id) on delete cascade,
  user_id text not null references users(id) on delete cascade,
  role text not null check (role in ('member', 'admin', 'owner')),
  created_at timestamptz not null default now(),
  unique (org_id, user_id)
);
create index members_user_idx on members (user_id);

-- MCP access per organization: created in state 'testing' on first check (spec section 3).
create table org_mcp_access (
  org_id text primary key references organizations(id) on delete cascade,
  state text not null default 'testing' check (state in ('testing', 'active', 'revoked')),
  max_scopes text[] not null default array['files:read', 'files:write', 'org:read', 'org:admin'],
  updated_at timestamptz not null default now()
);

-- ES256 keys for access tokens (and signed plan tokens). 'next' keys are published before they sign.
create table signing_keys (
  kid text primary key,
  alg text not null default 'ES256',
  public_jwk jsonb not null,
  private_jwk jsonb not null,
  state text not null check (state in ('next', 'active', 'retired')),
  created_at timestamptz not null default now(),
  activated_at timestamptz,
  retired_at timestamptz
);
create unique index signing_keys_one_active on signing_keys ((true)) where state = 'active';
