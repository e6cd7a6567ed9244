// A real SMTP server inside the test (smtp-server on 127.0.0.1:0, no TLS, any or no auth) that parses every
// message with mailparser. The app sends through nodemailer with SMTP_URL = catcher.url, so delivery is real.
// A message is parsed before the server acknowledges it: once the app's request has returned, the mail is here.
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { Test } from 'tap';

export interface CaughtMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The language of the HTML part (`<html lang>`), when there is one. */
  lang: string | null;
  /** Every http(s) link in the text part. */
  links: string[];
  raw: ParsedMail;
}

export interface SmtpCatcher {
  url: string;
  messages: CaughtMail[];
  /** Messages to an address (case-insensitive). */
  to(address: string): CaughtMail[];
  /** The latest message to `address`; throws when there is none. */
  latest(address: string): CaughtMail;
  /** Wait (up to `ms`) until `address` has more than `known` messages, and return message number `known`. */
  next(address: string, known: number, ms?: number): Promise<CaughtMail>;
  close(): Promise<void>;
}

function addresses(field: ParsedMail['to']): string[] {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  return list.flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));
}

export async function startSmtpCatcher(t: Test): Promise<SmtpCatcher> {
  const messages: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 1024 * 1024,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const text = mail.text ?? '';
          const html = typeof mail.html === 'string' ? mail.html : '';
          messages.push({
            to: addresses(mail.to),
            from: mail.from?.value[0]?.address ?? '',
            subject: mail.subject ?? '',
            text,
            html,
            lang: /<html[^>]*\blang="([^"]+)"/i.exec(html)?.[1] ?? null,
            links: [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]),
            raw: mail,
          });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  const to = (address: string) => messages.filter((m) => m.to.includes(address.toLowerCase()));
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  t.teardown(close);
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to,
    latest(address) {
      const list = to(address);
      if (!list.length) throw new Error(`no mail to ${address}`);
      return list[list.length - 1];
    },
    async next(address, known, ms = 5000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const list = to(address);
        if (list.length > known) return list[known];
        if (Date.now() > deadline) throw new Error(`no new mail to ${address} (have ${list.length})`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close,
  };
}
