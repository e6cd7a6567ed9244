-- Files are paths: one active file per (organization, name), held by a partial unique index. Before the index can
-- exist, active files sharing a name are told apart: the newest (latest created_at, then id) keeps the name, every
-- other one is renamed beside it (`report (2).txt`, `report (3).txt`, ...), its bytes untouched. A file whose name is
-- also a folder of other active files (`x` beside `x/y`) is renamed the same way, so that no active name is a folder
-- of another. Trashed files keep their names: restoring one into a taken path is refused unless the caller decides.
-- Each rename is written to migration_log (npm start and npm run migrate print it).
--
-- Files also carry the content's modification time (client-settable, for tools that round-trip mtimes; existing
-- rows take their last change) and an executable bit; an upload carries both until it completes.

create table migration_log (
  id bigserial primary key,
  version integer not null,
  logged_at timestamptz not null default now(),
  message text not null,
  details jsonb not null default '{}'
);

alter table files add column modified_at timestamptz;
update files set modified_at = updated_at;
alter table files alter column modified_at set not null;
-- The write time, for writers that do not say (the catalogue's own writers always do).
alter table files alter column modified_at set default now();
alter table files add column executable boolean not null default false;

-- null: the completion time
alter table uploads add column modified_at timestamptz;
alter table uploads add column executable boolean not null default false;

-- `name` with ` (label)` before its extension, the last segment shortened so that the whole stays within 255
-- characters (services/paths.ts derives restore names the same way).
create function pg_temp.derived_file_name(name text, label text) returns text language plpgsql immutable as $$
declare
  slash integer := char_length(name) - position('/' in reverse(name)) + 1;
  dir text;
  seg text;
  dot integer;
  stem text;
  ext text := '';
  suffix text := ' (' || label || ')';
  room integer;
begin
  if position('/' in name) = 0 then
    slash := 0;
  end if;
  dir := left(name, slash);
  seg := substr(name, slash + 1);
  dot := char_length(seg) - position('.' in reverse(seg)) + 1;
  if position('.' in seg) > 0 and dot > 1 and dot < char_length(seg) then
    stem := left(seg, dot - 1);
    ext := substr(seg, dot);
  else
    stem := seg;
  end if;
  room := 255 - char_length(dir) - char_length(suffix);
  if char_length(stem) + char_length(ext) > room then
    if room - char_length(ext) < 1 then
      ext := '';
    end if;
    if room - char_length(ext) < 1 then
      dir := '';
      room := 255 - char_length(suffix);
    end if;
    stem := rtrim(left(stem, room - char_length(ext)));
  end if;
  return dir || stem || suffix || ext;
end $$;

-- The first of `name (2)`, `name (3)`, ... that no active file holds, as a name or as a folder.
create function pg_temp.free_file_name(org text, name text) returns text language plpgsql as $$
declare
  n integer := 2;
  candidate text;
begin
  loop
    candidate := pg_temp.derived_file_name(name, n::text);
    exit when not exists (
      select 1 from files f
      where f.org_id = org and f.state = 'active'
        and (f.name = candidate or (f.name >= candidate || '/' and f.name < candidate || '0')));
    n := n + 1;
  end loop;
  return candidate;
end $$;

do $$
declare
  dup record;
  f record;
  target text;
begin
  for dup in
    select org_id, name from files where state = 'active'
    group by org_id, name having count(*) > 1
    order by org_id, name
  loop
    for f in
      select id, name from files
      where org_id = dup.org_id and name = dup.name and state = 'active'
      order by created_at desc, id desc
      offset 1
    loop
      target := pg_temp.free_file_name(dup.org_id, f.name);
      update files set name = target, updated_at = now() where id = f.id;
      insert into migration_log (version, message, details) values (13,
        format('file %s renamed from %s to %s: another active file has that name', f.id, f.name, target),
        jsonb_build_object('reason', 'duplicate_name', 'orgId', dup.org_id, 'fileId', f.id, 'from', f.name, 'to', target));
    end loop;
  end loop;

  -- `/` is the byte before `0` in collation "C": names in [x/, x0) are exactly those under the folder x.
  for f in
    select p.id, p.org_id, p.name from files p
    where p.state = 'active' and exists (
      select 1 from files c
      where c.org_id = p.org_id and c.state = 'active' and c.name >= p.name || '/' and c.name < p.name || '0')
    order by p.org_id, p.name
  loop
    target := pg_temp.free_file_name(f.org_id, f.name);
    update files set name = target, updated_at = now() where id = f.id;
    insert into migration_log (version, message, details) values (13,
      format('file %s renamed from %s to %s: %s is also a folder of other active files', f.id, f.name, target, f.name),
      jsonb_build_object('reason', 'file_is_folder', 'orgId', f.org_id, 'fileId', f.id, 'from', f.name, 'to', target));
  end loop;
end $$;

drop function pg_temp.free_file_name(text, text);
drop function pg_temp.derived_file_name(text, text);

create unique index files_active_name_idx on files (org_id, name) where state = 'active';
