// Without SMTP_URL, mail goes to a dev outbox: one JSON file per message under DATA_DIR/mail, and a log line. `say`
// (the terminal of `npm start`) also gets the message's link as a plain line, so a developer signing in finds it at
// a glance instead of inside a JSON log line or the mail folder.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Mailer } from '../../runtime-api/index.ts';
import type { Logger } from '../logger.ts';

/** The plain line a developer reads for a message carrying `link`. */
export function outboxLine(to: string, subject: string, link: string): string {
  return new URL(link).pathname.startsWith('/auth/magic-link') ? `Sign-in link for ${to}: ${link}` : `Mail for ${to} (${subject}): ${link}`;
}

export function devOutbox(dir: string, logger: Logger, say: (line: string) => void = () => {}): Mailer {
  return {
    async send(message) {
      await mkdir(dir, { recursive: true });
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.json`);
      await writeFile(file, JSON.stringify(message, null, 2), { mode: 0o600 });
      const link = /https?:\/\/\S+/.exec(message.text)?.[0];
      logger.info('mail written to the dev outbox', { to: message.to, subject: message.subject, file, link });
      if (link) say(outboxLine(message.to, message.subject, link));
    },
  };
}
