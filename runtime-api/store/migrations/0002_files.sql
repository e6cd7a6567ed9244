-- The file catalogue: files (active or in the trash), upload reservations with their part manifest, and one
-- lock row per organization that serializes every change of storage usage (quota checks never overshoot).

-- Names sort and compare byte-wise (collation "C"): keyset pagination and prefix filters are then stable and
-- independent of the server's locale.
create table files (
  id text primary key,
  org_id text not null references organizations(id) on delete cascade,
  name text collate "C" not null,
  media_type text not null,
  byte_length bigint not null check (byte_length >= 0),
  -- hex SHA-256 of the content when known (text files, single-part uploads); null otherwise
  sha256 text,
  -- immutable: a new content version gets a new key, so the key doubles as a strong ETag
  blob_key text not null unique,
  state text not null default 'active' check (state in ('active', 'trashed')),
  created_by text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  trashed_at timestamptz,
  check ((state = 'trashed') = (trashed_at is not null))
);
create index files_list_idx on files (org_id, state, name, id);
create index files_trash_idx on files (trashed_at) where state = 'trashed';

create table uploads (
  id text primary key,
  org_id text not null references organizations(id) on delete cascade,
  created_by text,
  name text collate "C" not null,
  media_type text not null,
  byte_length bigint not null check (byte_length >= 0),
  part_size integer not null check (part_size > 0),
  part_count integer not null check (part_count between 1 and 10000),
  -- open: accepts parts; completing: parts frozen, bytes being assembled; then completed, aborted or expired
  state text not null default 'open' check (state in ('open', 'completing', 'completed', 'aborted', 'expired')),
  -- the file the upload becomes, and where its bytes will live (known from the start, so janitors can tell)
  file_id text not null unique,
  blob_key text not null unique,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  state_changed_at timestamptz not null
);
create index uploads_open_org_idx on uploads (org_id) where state in ('open', 'completing');
create index uploads_open_expiry_idx on uploads (expires_at) where state = 'open';

create table upload_parts (
  upload_id text not null references uploads(id) on delete cascade,
  part_number integer not null check (part_number between 1 and 10000),
  byte_length integer not null check (byte_length >= 0),
  sha256 text not null,
  received_at timestamptz not null,
  primary key (upload_id, part_number)
);

-- One row per organization, locked (insert ... on conflict do update) by every transaction that adds bytes.
create table org_storage_locks (
  org_id text primary key references organizations(id) on delete cascade
);
