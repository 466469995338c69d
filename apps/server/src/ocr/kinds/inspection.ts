/**
 * An ITP (RO) / ITV (ES) / MOT-style inspection certificate (issue 52): the date it is valid until,
 * read after its label ("Valabil până la", "Data expirării", "Próxima inspección", "Válido hasta",
 * "Fecha de caducidad", "Next inspection"), on the label's line or the line below. A date with no
 * such label is never guessed to be the expiry: the inspection date and the car's registration
 * date sit on the same paper.
 */
import { findDates } from '../text/dates.js';
import type { Line } from '../text/lines.js';

/** Labels as they are normalised (upper case, no accents); any space may be missing or doubled. */
const LABELS = [
  // ro
  'VALABIL PANA LA',
  'VALABILA PANA LA',
  'VALABILITATE PANA LA',
  'VALABIL PINA LA',
  'DATA EXPIRARII',
  'DATA URMATOAREI INSPECTII',
  'URMATOAREA INSPECTIE',
  'EXPIRA LA',
  // es
  'PROXIMA INSPECCION',
  'PROX. INSPECCION',
  'VALIDO HASTA',
  'VALIDA HASTA',
  'FECHA DE CADUCIDAD',
  'FECHA CADUCIDAD',
  'CADUCA EL',
  // en
  'NEXT INSPECTION',
  'NEXT TEST DUE',
  'VALID UNTIL',
  'VALID TO',
  'EXPIRY DATE',
  'EXPIRES ON',
];
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const LABEL = new RegExp(LABELS.map((l) => l.split(' ').map(literal).join('\\s*')).join('|'), 'g');

export type InspectionRead = { expiresOn: string | null; confidence: number };

/**
 * The certificate's expiry: the first date after a label on its line (confidence 0.9), else the
 * first date of the next line (0.7). Several labelled dates (a ficha técnica's stamps, one per
 * inspection): the latest, the one in force.
 */
export function readInspectionExpiry(lines: Line[]): InspectionRead {
  const found: { iso: string; conf: number }[] = [];
  lines.forEach((line, i) => {
    for (const m of line.norm.matchAll(LABEL)) {
      const after = line.norm.slice((m.index ?? 0) + m[0].length);
      const same = findDates(after)[0];
      if (same) {
        found.push({ iso: same.iso, conf: 0.9 });
        continue;
      }
      const next = lines[i + 1];
      const below = next ? findDates(next.norm)[0] : undefined;
      if (below) found.push({ iso: below.iso, conf: 0.7 });
    }
  });
  const best = found.sort((a, b) => b.iso.localeCompare(a.iso) || b.conf - a.conf)[0];
  return best ? { expiresOn: best.iso, confidence: best.conf } : { expiresOn: null, confidence: 0 };
}
