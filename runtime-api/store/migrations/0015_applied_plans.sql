-- Plan tokens that were applied. An apply commits its writes and this row in one transaction, so a plan token
-- applies once: a second apply is refused (409 plan_already_applied) before its script runs, and of two concurrent
-- applies of one token only the first to commit counts. Rows outlive their token's 15 minutes by a day, so a late
-- retry is still told what happened; then a janitor forgets them.
create table applied_plans (
  id text primary key, -- SHA-256 of the plan token (hex)
  org_id text not null references organizations(id) on delete cascade,
  user_id text not null references users(id) on delete cascade,
  writes integer not null,
  applied_at timestamptz not null
);
create index applied_plans_applied_at on applied_plans (applied_at);
