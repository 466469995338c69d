/** Whether the document turns renewal reminders off ("Renewal reminders: No"). */

import { editsToFind } from '../text/fuzzy.js';
import type { Line } from '../text/lines.js';

/** What a document calls its renewal reminders, letters only, to find them with a letter or two misread. */
const REMINDER_LABELS = [
  'RENEWALREMINDERS',
  'RENEWALNOTICES',
  'REMINDERS',
  'NOTIFICARIDEREINNOIRE',
  'REAMINTIRIDEREINNOIRE',
  'NOTIFICARI',
  'AVISODERENOVACION',
  'RECORDATORIODERENOVACION',
  'AVISOS',
];
/**
 * True when a line says the renewal reminders are off ("Renewal reminders: No", "Notificări de
 * reînnoire: NU", "Aviso de renovación: NO"), its label as printed or with a letter in four
 * misread ("Renewal remunders: No", "Notifican de reinnoire: NU").
 */
export function remindersOff(lines: Line[]): boolean {
  for (const l of lines) {
    if (
      /(NOTIFICARI|REAMINTIRE|REMINDER|AVISO|RECORDATORIO|RENEWAL NOTICE)[^:]*:\s*(NU|NO|OFF|FALSE)\b/.test(
        l.norm,
      )
    )
      return true;
    const m = /^(.{5,45}?)\s*[:.;]?\s*\b(NU|NO|OFF)\s*\.?$/.exec(l.norm.trim());
    const label = m?.[1]?.replace(/[^A-Z]/g, '') ?? '';
    if (
      label.length >= 5 &&
      REMINDER_LABELS.some(
        (w) => label.length <= w.length + 3 && editsToFind(w, label) <= Math.floor(w.length / 4),
      )
    )
      return true;
  }
  return false;
}
