import type { Language } from '@evdra/domain';
import type { Mail } from './mailer.js';

const RESET: Record<Language, { subject: string; body: (name: string, link: string) => string }> = {
  en: {
    subject: 'Reset your Evdra password',
    body: (name, link) =>
      `Hello ${name},\n\nSomeone asked to reset your Evdra password. Open this link within one hour to choose a new one:\n\n${link}\n\nThe link works once. If it was not you, ignore this email: your password stays the same.\n`,
  },
  ro: {
    subject: 'Resetează parola Evdra',
    body: (name, link) =>
      `Bună, ${name},\n\nCineva a cerut resetarea parolei tale Evdra. Deschide acest link în cel mult o oră pentru a alege una nouă:\n\n${link}\n\nLinkul funcționează o singură dată. Dacă nu ai fost tu, ignoră acest email: parola rămâne aceeași.\n`,
  },
  es: {
    subject: 'Restablece tu contraseña de Evdra',
    body: (name, link) =>
      `Hola, ${name}:\n\nAlguien ha pedido restablecer tu contraseña de Evdra. Abre este enlace en menos de una hora para elegir una nueva:\n\n${link}\n\nEl enlace solo funciona una vez. Si no has sido tú, ignora este correo: tu contraseña no cambia.\n`,
  },
};

export function passwordResetMail(to: string, name: string, language: Language, link: string): Mail {
  const t = RESET[language];
  return { to, subject: t.subject, text: t.body(name, link) };
}
