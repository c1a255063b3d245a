// E-mail (seed: Events): verification codes, notification kinds, cashout stages. In test mode and
// by default messages go to the outbox (GET /test_helpers/outbox); with MARKETPLACE_SMTP_URL set
// they are sent through nodemailer and recorded in the outbox too.
import nodemailer from 'nodemailer';
import type { Outbox } from './outbox.ts';

export interface Mail {
  to: string;
  kind: string;
  subject: string;
  body: string;
  /** Machine-readable values (a verification `code`), for the outbox only. */
  data?: Record<string, unknown>;
}

export interface Mailer {
  send(mail: Mail, now: number): Promise<void>;
}

/** Records mail in the outbox. */
export function outboxMailer(outbox: Outbox): Mailer {
  return {
    send: async (mail, now) => {
      outbox.add({
        channel: 'email',
        to: mail.to,
        kind: mail.kind,
        subject: mail.subject,
        body: mail.body,
        data: mail.data ?? {},
        timestamp: now,
      });
    },
  };
}

/** Sends through SMTP (nodemailer) and records in the outbox. */
export function smtpMailer(
  url: string,
  outbox: Outbox,
  from = 'Item Marketplace <no-reply@marketplace.example>',
): Mailer {
  const transport = nodemailer.createTransport(url);
  const record = outboxMailer(outbox);
  return {
    send: async (mail, now) => {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.body });
      await record.send(mail, now);
    },
  };
}
