/** Whether the document turns renewal reminders off ("Renewal reminders: No"). */

import { anyOf, every } from '../lexicon/index.js';
import { editsToFind } from '../text/fuzzy.js';
import type { Line } from '../text/lines.js';

/** What a document calls its renewal reminders, letters only, to find them with a letter or two misread. */
const REMINDER_LABELS = every((l) => l.reminderLetters);
/** "Renewal reminders: No" and the like, a colon between. */
const OFF = new RegExp(`(${anyOf((l) => l.reminders)})[^:]*:\\s*(${anyOf((l) => l.no, 'FALSE')})\\b`);
/** A short label and "No" at the end of its line, the label to be compared with REMINDER_LABELS. */
const LABEL_THEN_NO = new RegExp(`^(.{5,45}?)\\s*[:.;]?\\s*\\b(${anyOf((l) => l.no)})\\s*\\.?$`);
/**
 * True when a line says the renewal reminders are off ("Renewal reminders: No", "Notificări de
 * reînnoire: NU", "Aviso de renovación: NO"), its label as printed or with a letter in four
 * misread ("Renewal remunders: No", "Notifican de reinnoire: NU").
 */
export function remindersOff(lines: Line[]): boolean {
  for (const l of lines) {
    if (OFF.test(l.norm)) return true;
    const m = LABEL_THEN_NO.exec(l.norm.trim());
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
