// Without SMTP_URL, mail goes to a dev outbox: one JSON file per message under DATA_DIR/mail, and a log line.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Mailer } from '../../runtime-api/index.ts';
import type { Logger } from '../logger.ts';

export function devOutbox(dir: string, logger: Logger): Mailer {
  return {
    async send(message) {
      await mkdir(dir, { recursive: true });
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.json`);
      await writeFile(file, JSON.stringify(message, null, 2), { mode: 0o600 });
      const link = /https?:\/\/\S+/.exec(message.text)?.[0];
      logger.info('mail written to the dev outbox', { to: message.to, subject: message.subject, file, link });
    },
  };
}
