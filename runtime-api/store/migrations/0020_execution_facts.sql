-- What the activity view tells about each execution beyond who and how it ended: the API key it ran with (its name
-- is read from api_keys when listed), where it came from (mcp, rest, or cli when the command line identified itself),
-- the first lines of the script and the failure's message and line (scripts are otherwise never stored: see
-- docs/security.md). Rows written before these columns existed keep nulls: the excerpt is unknown and the source is
-- read from `via`.
alter table executions
  add column key_id text,
  add column source text check (source in ('mcp', 'rest', 'cli')),
  add column script_excerpt text,
  add column script_lines integer,
  add column error_message text,
  add column error_line integer;

-- The activity view's filters: one person's runs, one key's runs, newest first.
create index executions_org_user_idx on executions (org_id, user_id, created_at desc, id desc);
create index executions_org_key_idx on executions (org_id, key_id, created_at desc, id desc) where key_id is not null;
