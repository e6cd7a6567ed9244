// The mailer choice: SMTP when SMTP_URL is set, otherwise the dev outbox under DATA_DIR/mail (with the link logged).
import { join } from 'node:path';
import type { Mailer } from '../../runtime-api/index.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { devOutbox } from './dev-outbox.ts';
import { smtpMailer } from './smtp.ts';

/** `say` prints a plain line on the terminal (the dev outbox's links); tests and production leave it silent. */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>, logger: Logger, say?: (line: string) => void): Mailer {
  if (config.smtpUrl) return smtpMailer(config.smtpUrl, config.mailFrom, logger);
  return devOutbox(join(config.dataDir, 'mail'), logger, say);
}
