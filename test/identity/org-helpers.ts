// Organization set-up through the real routes: create, invite (mail over SMTP), accept as the invitee.
import type { Test } from 'tap';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/smtp-catcher.ts';
import { signIn, type SessionJar } from '../helpers/session.ts';

export interface World {
  app: TestApp;
  smtp: SmtpCatcher;
  /** Sign in (once per address; later calls reuse the jar). */
  user(email: string): Promise<SessionJar>;
  /** Create an organization owned by `owner`. */
  org(owner: SessionJar, slug: string): Promise<{ id: string; slug: string }>;
  /** Invite `email` with `role` as `by`, accept as the invitee; returns the invitee's jar and member id. */
  join(by: SessionJar, orgId: string, email: string, role: 'member' | 'admin' | 'owner'): Promise<{ jar: SessionJar; memberId: string }>;
  /** Members of an organization straight from the database: email → role. */
  roles(orgId: string): Promise<Record<string, string>>;
}

export async function world(t: Test, options: { manualClock?: boolean } = {}): Promise<World> {
  const smtp = await startSmtpCatcher(t);
  const app = await startTestApp(t, { manualClock: options.manualClock, env: { RATE_LIMIT_MAX: '100000', SMTP_URL: smtp.url } });
  const jars = new Map<string, SessionJar>();
  const user = async (email: string) => {
    const known = jars.get(email.toLowerCase());
    if (known) return known;
    const jar = await signIn(app, smtp, email);
    jars.set(email.toLowerCase(), jar);
    return jar;
  };
  return {
    app,
    smtp,
    user,
    async org(owner, slug) {
      const res = await owner.post('/auth/organization/create', { name: slug.toUpperCase(), slug });
      if (res.status !== 201) throw new Error(`create ${slug}: ${res.status} ${res.text}`);
      return res.body;
    },
    async join(by, orgId, email, role) {
      const inv = await by.post('/auth/organization/invite-member', { email, role, organizationId: orgId });
      if (inv.status !== 201) throw new Error(`invite ${email}: ${inv.status} ${inv.text}`);
      const jar = await user(email);
      const acc = await jar.post('/auth/organization/accept-invitation', { invitationId: inv.body.id });
      if (acc.status !== 200) throw new Error(`accept ${email}: ${acc.status} ${acc.text}`);
      return { jar, memberId: acc.body.member.id };
    },
    async roles(orgId) {
      const rows = await app.deps.sql`select u.email::text as email, m.role from members m join users u on u.id = m.user_id where m.org_id = ${orgId}`;
      return Object.fromEntries(rows.map((r) => [r.email, r.role]));
    },
  };
}
