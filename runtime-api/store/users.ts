// Users: created on first sign-in (or by mint-token), looked up by id or e-mail (case-insensitive).
import type { Sql } from 'postgres';
import { newId } from '../ids.ts';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  image: string | null;
}

export async function findUserById(sql: Sql, id: string): Promise<UserRow | null> {
  const [row] = await sql<UserRow[]>`select id, email::text as email, name, image from users where id = ${id}`;
  return row ?? null;
}

export async function findUserByEmail(sql: Sql, email: string): Promise<UserRow | null> {
  const [row] = await sql<UserRow[]>`select id, email::text as email, name, image from users where email = ${email}`;
  return row ?? null;
}

/** Return the user with this e-mail, creating it if needed (race-free through the unique index). */
export async function ensureUser(sql: Sql, email: string, name = ''): Promise<UserRow> {
  const [row] = await sql<UserRow[]>`insert into users (id, email, name) values (${newId('usr')}, ${email}, ${name || email.split('@')[0]})
    on conflict (email) do update set email = users.email
    returning id, email::text as email, name, image`;
  return row;
}
