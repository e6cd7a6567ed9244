-- Who changed an organization's MCP access state or maxScopes, when, and from what: the audit trail an owner reads
-- with mcp_access_get (the record itself only holds the current values).
create table mcp_access_changes (
  id text primary key,
  org_id text not null references organizations(id) on delete cascade,
  user_id text not null,
  from_state text not null,
  to_state text not null,
  from_max_scopes text[] not null,
  to_max_scopes text[] not null,
  created_at timestamptz not null default now()
);
create index mcp_access_changes_org_idx on mcp_access_changes (org_id, created_at desc);
