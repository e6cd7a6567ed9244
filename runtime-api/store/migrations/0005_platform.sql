-- Rate-limit windows shared by every instance on this database (RATE_LIMIT_STORE=postgres). Unlogged: a crash
-- forgetting the current minute's counts is acceptable, and it keeps the hot path cheap.
create unlogged table rate_limits (
  key text primary key,
  window_start timestamptz not null,
  count integer not null
);
