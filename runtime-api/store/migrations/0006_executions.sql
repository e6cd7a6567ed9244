-- The execution audit log: every script run (MCP execute or /app/v1/execute), who ran it and how it ended.
create table executions (
  id text primary key,
  org_id text not null references organizations(id) on delete cascade,
  user_id text not null,
  client_id text,
  via text not null check (via in ('mcp', 'app')),
  mode text not null check (mode in ('run', 'plan', 'apply')),
  script_sha256 text not null,
  ok boolean not null,
  error_type text,
  error_code text,
  wall_ms integer not null,
  cpu_ms integer not null,
  host_calls integer not null,
  created_at timestamptz not null default now()
);
create index executions_org_created_idx on executions (org_id, created_at desc, id desc);
