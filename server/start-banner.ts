// What `npm start` tells the person at the terminal once it listens: where to open the service, and, without SMTP,
// where the sign-in links go (they are printed as plain lines as they are sent; server/mail/dev-outbox.ts).
import { join } from 'node:path';
import type { Config } from './config.ts';

/** `port`: the one the server listens on (PORT=0 picks one, which the configured public base URL cannot name). */
export function startBanner(config: Pick<Config, 'host' | 'port' | 'publicBaseUrl' | 'smtpUrl' | 'dataDir'>, port: number): string {
  const base = port === config.port ? config.publicBaseUrl : `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const lines = [`Siglata is ready: open ${base}/ in a browser (the console is ${base}/console).`];
  if (!config.smtpUrl) lines.push(`No SMTP_URL is set: sign-in links are printed here as they are sent (and written to ${join(config.dataDir, 'mail')}).`);
  return lines.join('\n');
}
