/** The decoded text body of a raw .eml (headers dropped, quoted-printable undone). */
export function mailBody(eml: string): string {
  const { headers, body } = splitMail(eml);
  if (!/content-transfer-encoding:\s*quoted-printable/i.test(headers)) return body;
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The value of a header of a raw .eml, e.g. `To`. */
export function mailHeader(eml: string, name: string): string | undefined {
  const { headers } = splitMail(eml);
  const m = new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headers);
  return m?.[1]?.trim();
}

/** Mails addressed to `email`, oldest first. */
export const mailsTo = (outbox: string[], email: string) =>
  outbox.filter((m) => mailHeader(m, 'To')?.toLowerCase().includes(email.toLowerCase()));

/** The reset token from the link `http://evdra.test/reset-password?token=…` in a mail. */
export function resetTokenIn(eml: string): string {
  const m = /http:\/\/evdra\.test\/reset-password\?token=([^\s]+)/.exec(mailBody(eml));
  if (!m?.[1]) throw new Error(`no reset link in mail:\n${eml}`);
  return decodeURIComponent(m[1]);
}

function splitMail(eml: string): { headers: string; body: string } {
  const m = /\r?\n\r?\n/.exec(eml);
  if (!m) return { headers: eml, body: '' };
  return { headers: eml.slice(0, m.index), body: eml.slice(m.index + m[0].length) };
}
