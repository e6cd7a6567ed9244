-- Host deaths blamed on a principal (an organization `org:<id>` or a person `person:<id>`), shared by every
-- instance: each engine counts the strikes any instance recorded, so a crash budget and the quarantine it leads to
-- hold whichever instance the next request reaches. Rows older than the engine's window and cool-down are pruned.
create table engine_strikes (
  id text primary key,
  principal text not null,
  at timestamptz not null
);
create index engine_strikes_at on engine_strikes (at);
