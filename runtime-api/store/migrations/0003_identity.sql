-- Identity: browser sessions, single-use magic links, organization invitations.
-- Every secret (session cookie, magic-link token) is stored only as its SHA-256 (hex); times come from the
-- application's clock so that expiry is testable.

create table sessions (
  id text primary key,
  token_hash text not null unique,
  user_id text not null references users(id) on delete cascade,
  -- The organization /app/v1 and other cookie-authenticated calls act on (set on create/accept, else first membership).
  active_org_id text references organizations(id) on delete set null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  last_used_at timestamptz not null
);
create index sessions_user_idx on sessions (user_id);
-- Expired rows are kept ~30 days (an expired cookie answers SESSION_EXPIRED, an unknown one plain 401), then purged.
create index sessions_expires_idx on sessions (expires_at);

create table magic_links (
  token_hash text primary key,
  email citext not null,
  locale text not null check (locale in ('en-US', 'pt-BR')),
  -- A server-validated same-site path; never taken from the verify request.
  return_to text not null default '/',
  created_at timestamptz not null,
  expires_at timestamptz not null,
  consumed_at timestamptz
);
create index magic_links_expires_idx on magic_links (expires_at);

create table invitations (
  id text primary key,
  org_id text not null references organizations(id) on delete cascade,
  email citext not null,
  role text not null check (role in ('member', 'admin', 'owner')),
  status text not null default 'pending' check (status in ('pending', 'accepted', 'rejected', 'canceled', 'expired')),
  inviter_id text references users(id) on delete set null,
  locale text not null check (locale in ('en-US', 'pt-BR')),
  created_at timestamptz not null,
  expires_at timestamptz not null,
  updated_at timestamptz not null
);
-- At most one pending invitation per address and organization (citext: case-insensitive).
create unique index invitations_one_pending on invitations (org_id, email) where status = 'pending';
create index invitations_email_idx on invitations (email);
