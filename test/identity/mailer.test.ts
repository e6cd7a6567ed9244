// The mailer choice made at bootstrap: SMTP through nodemailer when SMTP_URL is set, otherwise the dev outbox
// (a JSON file per message under DATA_DIR/mail and a log line carrying the link).
import t from 'tap';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMailer } from '../../server/mail/mailer.ts';
import { createLogger } from '../../server/logger.ts';
import { magicLinkMail } from '../../runtime-api/identity/sign-in.ts';
import { invitationMail } from '../../runtime-api/services/invitations.ts';
import { startSmtpCatcher } from '../helpers/smtp-catcher.ts';

const link = 'https://siglata.example/auth/magic-link?token=abc&lang=pt-BR';

t.test('without SMTP_URL: the dev outbox, with the link logged', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'siglata-mail-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const lines: string[] = [];
  const mailer = createMailer(
    { smtpUrl: undefined, mailFrom: 'x <no-reply@siglata.com>', dataDir },
    createLogger('info', {}, (l) => lines.push(l)),
  );
  await mailer.send({ to: 'ana@example.com', ...magicLinkMail('pt-BR', link) });
  const files = await readdir(join(dataDir, 'mail'));
  t.equal(files.length, 1);
  const stored = JSON.parse(await readFile(join(dataDir, 'mail', files[0]), 'utf8'));
  t.equal(stored.subject, 'Seu link de acesso à Siglata');
  const log = JSON.parse(lines.find((l) => l.includes('dev outbox'))!);
  t.equal(log.link, link);
});

t.test('with SMTP_URL: real SMTP, text and HTML parts, both languages', async (t) => {
  const smtp = await startSmtpCatcher(t);
  const mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'Siglata <no-reply@siglata.com>', dataDir: '/nonexistent' }, createLogger('silent'));
  await mailer.send({ to: 'ana@example.com', ...magicLinkMail('en-US', 'https://siglata.example/auth/magic-link?token=a&b=<x>') });
  await mailer.send({
    to: 'bo@example.com',
    ...invitationMail('pt-BR', { orgName: 'Acme <b>', inviter: 'Ana', role: 'owner', link: 'https://siglata.example/i' }),
  });
  const en = smtp.latest('ana@example.com');
  t.equal(en.from, 'no-reply@siglata.com');
  t.equal(en.subject, 'Your Siglata sign-in link');
  t.equal(en.lang, 'en-US');
  t.match(en.html, 'token=a&amp;b=&lt;x&gt;', 'the HTML part escapes the link');
  const pt = smtp.latest('bo@example.com');
  t.equal(pt.subject, 'Você foi convidado para participar de Acme <b> na Siglata');
  t.match(pt.text, 'Ana convidou você para participar de Acme <b> como proprietário.');
  t.match(pt.html, 'Acme &lt;b&gt;');
  t.notMatch(pt.html, 'Acme <b>');
});
