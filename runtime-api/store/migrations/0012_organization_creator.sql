-- Who created each organization, so that creating organizations can be bounded per person (an hourly rate and a
-- total). Existing organizations count against their first owner. A deleted user's organizations stay, uncounted.
alter table organizations add column created_by text references users(id) on delete set null;

update organizations o set created_by = (
  select m.user_id from members m where m.org_id = o.id and m.role = 'owner' order by m.id limit 1);

create index organizations_created_by on organizations (created_by, created_at);
