// SMTP delivery through nodemailer (SMTP_URL: smtp:// or smtps://, credentials in the URL). A send resolves once the
// server has accepted the message, so callers can treat a resolved send as delivered to the relay.
import nodemailer from 'nodemailer';
import type { Mailer } from '../../runtime-api/index.ts';
import type { Logger } from '../logger.ts';

export function smtpMailer(url: string, from: string, logger: Logger): Mailer & { close(): void } {
  const transport = nodemailer.createTransport(url);
  return {
    async send(message) {
      const info = await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html });
      logger.debug('mail sent', { to: message.to, subject: message.subject, messageId: info.messageId });
    },
    close() {
      transport.close();
    },
  };
}
