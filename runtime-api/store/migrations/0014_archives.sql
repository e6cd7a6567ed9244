-- Archive import and export. An upload may be imported as an archive instead of completed: `importing` while its
-- entries are read and staged (its bytes still reserved; back to `open` if the import refuses or fails), then
-- `imported` once its entries are in the catalogue. An export is a snapshot of which files go under which names;
-- one GET streams them as one archive until it expires.
alter table uploads drop constraint uploads_state_check;
alter table uploads add constraint uploads_state_check
  check (state in ('open', 'completing', 'completed', 'aborted', 'expired', 'importing', 'imported'));
drop index uploads_open_org_idx;
create index uploads_open_org_idx on uploads (org_id) where state in ('open', 'completing', 'importing');
create index uploads_importing_idx on uploads (state_changed_at) where state = 'importing';

create table file_exports (
  id text primary key,
  org_id text not null references organizations(id) on delete cascade,
  created_by text,
  format text not null check (format in ('tar', 'zip')),
  -- the name the download is offered under (Content-Disposition), e.g. `reports.tar`
  name text not null,
  -- entry i is file_ids[i] under the name paths[i], in this order
  file_ids text[] not null,
  paths text[] not null,
  bytes bigint not null check (bytes >= 0),
  created_at timestamptz not null,
  expires_at timestamptz not null,
  check (cardinality(file_ids) = cardinality(paths))
);
create index file_exports_expiry_idx on file_exports (expires_at);
