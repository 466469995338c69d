import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';

export type Mail = { to: string; subject: string; text: string };
export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Resolves when the mail server answers and accepts the login (GET /api/health); throws otherwise. */
  verify?(): Promise<void>;
}

/** The transport, made on the first mail (nodemailer is not loaded at start-up). */
function lazyTransport(make: (nodemailer: typeof import('nodemailer')) => Transporter) {
  let transport: Promise<Transporter> | undefined;
  return () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) => make(nodemailer));
    return transport;
  };
}

/** Sends through SMTP_URL. */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = lazyTransport((nodemailer) => nodemailer.createTransport(url));
  return {
    send: async (mail) => void (await (await transport()).sendMail({ from, ...mail })),
    verify: async () => void (await (await transport()).verify()),
  };
}

/** Without SMTP: writes each mail as an .eml file in `dir` and logs where it went. */
export function outboxMailer(dir: string, from: string, log: FastifyBaseLogger): Mailer {
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  return {
    async send(mail) {
      const info = await (await transport()).sendMail({ from, ...mail });
      await mkdir(dir, { recursive: true });
      const file = join(dir, `${Date.now()}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, info.message as Buffer);
      log.info({ to: mail.to, subject: mail.subject, file }, 'mail written to outbox (no SMTP_URL set)');
    },
  };
}
