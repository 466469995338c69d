import type { ImportMessageCode, ImportRowError, ImportWarning, Language } from '@evdra/domain';

/** A warning or a row error as the parsers note it: a code and its figures, no language yet. */
export type ImportNote = {
  row: number;
  field: string;
  code: ImportMessageCode;
  params?: Record<string, string | number>;
};

const LOCALE: Record<Language, string> = { en: 'en-GB', ro: 'ro-RO', es: 'es-ES' };
const km = (lang: Language, n: unknown) => `${Number(n).toLocaleString(LOCALE[lang])} km`;

type Texts = Record<Language, string>;

/** The text of a note in the user's saved language (as OCR warnings and reminders are). */
function text(lang: Language, { code, params: p = {} }: ImportNote): string {
  const byCode: Record<ImportMessageCode, () => Texts> = {
    NO_DATE: () => ({
      en: 'No readable date.',
      ro: 'Nicio dată care să poată fi citită.',
      es: 'Ninguna fecha legible.',
    }),
    NO_VOLUME: () => ({
      en: 'No fuel quantity.',
      ro: 'Lipsește cantitatea de combustibil.',
      es: 'Falta la cantidad de combustible.',
    }),
    NO_AMOUNT: () => ({ en: 'No amount.', ro: 'Lipsește suma.', es: 'Falta el importe.' }),
    NO_VOLUME_OR_AMOUNT: () => ({
      en: 'Neither litres nor an amount.',
      ro: 'Nici litri, nici o sumă.',
      es: 'Ni litros ni un importe.',
    }),
    NO_DATE_COLUMN: () => ({
      en: 'Choose the column that holds the date.',
      ro: 'Alege coloana care conține data.',
      es: 'Elige la columna que contiene la fecha.',
    }),
    UNKNOWN_KIND: () => ({
      en: `Unknown kind "${p.kind}".`,
      ro: `Tip necunoscut „${p.kind}”.`,
      es: `Tipo desconocido «${p.kind}».`,
    }),
    INVALID_VALUE: () => ({
      en: `${p.field}: ${p.detail}`,
      ro: `Valoare nevalidă pentru ${p.field} (${p.detail}).`,
      es: `Valor no válido en ${p.field} (${p.detail}).`,
    }),
    ODOMETER_BELOW_EARLIER: () => ({
      en: `Odometer ${km(lang, p.odometer)} is lower than ${km(lang, p.other)} on the earlier fill-up of ${p.date}.`,
      ro: `Kilometrajul ${km(lang, p.odometer)} este mai mic decât ${km(lang, p.other)} la alimentarea anterioară din ${p.date}.`,
      es: `El cuentakilómetros ${km(lang, p.odometer)} es menor que ${km(lang, p.other)} en el repostaje anterior del ${p.date}.`,
    }),
    ODOMETER_ABOVE_LATER: () => ({
      en: `Odometer ${km(lang, p.odometer)} is higher than ${km(lang, p.other)} on the later fill-up of ${p.date}.`,
      ro: `Kilometrajul ${km(lang, p.odometer)} este mai mare decât ${km(lang, p.other)} la alimentarea ulterioară din ${p.date}.`,
      es: `El cuentakilómetros ${km(lang, p.odometer)} es mayor que ${km(lang, p.other)} en el repostaje posterior del ${p.date}.`,
    }),
    NO_COST: () => ({
      en: 'No cost: stored as 0.',
      ro: 'Fără cost: salvat ca 0.',
      es: 'Sin coste: se guarda como 0.',
    }),
    NO_ODOMETER: () => ({
      en: 'No odometer: no consumption for this fill-up.',
      ro: 'Fără kilometraj: nu se calculează consumul pentru această alimentare.',
      es: 'Sin cuentakilómetros: no hay consumo para este repostaje.',
    }),
    SERVICE_AS_EXPENSE: () => ({
      en: 'No odometer reading: imported as a maintenance expense.',
      ro: 'Fără kilometraj: importat ca cheltuială de întreținere.',
      es: 'Sin lectura del cuentakilómetros: importado como gasto de mantenimiento.',
    }),
    NO_ODOMETER_COLUMN: () => ({
      en: 'This export has no odometer column: no consumption can be computed.',
      ro: 'Acest export nu are coloană de kilometraj: consumul nu poate fi calculat.',
      es: 'Esta exportación no tiene columna de cuentakilómetros: no se puede calcular el consumo.',
    }),
    DOLLAR_UNITS: () => ({
      en: 'Costs are in $: distances are guessed to be miles and volumes US gallons. Choose the units if they are not.',
      ro: 'Costurile sunt în $: distanțele sunt presupuse în mile, iar volumele în galoni americani. Alege unitățile dacă nu sunt acestea.',
      es: 'Los costes están en $: se suponen distancias en millas y volúmenes en galones estadounidenses. Elige las unidades si no son esas.',
    }),
    SEVERAL_VEHICLES: () => ({
      en: `This file holds several vehicles (${p.names}): all their rows go into this vehicle. Keep only this vehicle's rows in the file.`,
      ro: `Acest fișier conține mai multe vehicule (${p.names}): toate rândurile lor intră la acest vehicul. Păstrează în fișier doar rândurile acestui vehicul.`,
      es: `Este archivo contiene varios vehículos (${p.names}): todas sus filas van a este vehículo. Deja en el archivo solo las filas de este vehículo.`,
    }),
    NO_RATE: () => ({
      en: `No exchange rate from ${p.currency} to ${p.owner} is known for ${p.date}: left out. Add it by hand with the rate you paid at.`,
      ro: `Nu se cunoaște un curs de schimb din ${p.currency} în ${p.owner} pentru ${p.date}: lăsat deoparte. Adaugă-l manual, cu cursul la care ai plătit.`,
      es: `No se conoce un tipo de cambio de ${p.currency} a ${p.owner} para el ${p.date}: se omite. Añádelo a mano con el tipo al que pagaste.`,
    }),
  };
  return byCode[code]()[lang];
}

export const importWarning = (lang: Language, n: ImportNote): ImportWarning => ({
  row: n.row,
  field: n.field,
  code: n.code,
  message: text(lang, n),
});

export const importError = (lang: Language, n: ImportNote): ImportRowError => ({
  row: n.row,
  code: n.code,
  message: text(lang, n),
});

/** An upload over one of the import's limits (read.ts), as the user reads it. */
export type ImportLimit = 'ZIP_ENTRIES' | 'ZIP_INFLATED' | 'ZIP_UNDECLARED' | 'ROWS' | 'MEMORY';

const LIMITS: Record<ImportLimit, Texts> = {
  ZIP_ENTRIES: {
    en: 'This ZIP holds more than 50 files. Zip only the CSV files of your export and try again.',
    ro: 'Această arhivă ZIP conține mai mult de 50 de fișiere. Arhivează doar fișierele CSV ale exportului și încearcă din nou.',
    es: 'Este ZIP contiene más de 50 archivos. Comprime solo los archivos CSV de tu exportación e inténtalo de nuevo.',
  },
  ZIP_INFLATED: {
    en: 'This ZIP unpacks to more than 100 MB. Zip only the CSV files of your export and try again.',
    ro: 'Această arhivă ZIP are peste 100 MB după dezarhivare. Arhivează doar fișierele CSV ale exportului și încearcă din nou.',
    es: 'Este ZIP ocupa más de 100 MB descomprimido. Comprime solo los archivos CSV de tu exportación e inténtalo de nuevo.',
  },
  ZIP_UNDECLARED: {
    en: 'A file in this ZIP unpacks to more than the ZIP says. Zip the CSV files of your export again and try again.',
    ro: 'Un fișier din această arhivă ZIP are după dezarhivare mai mult decât declară arhiva. Arhivează din nou fișierele CSV ale exportului și încearcă din nou.',
    es: 'Un archivo de este ZIP ocupa descomprimido más de lo que declara el ZIP. Vuelve a comprimir los archivos CSV de tu exportación e inténtalo de nuevo.',
  },
  ROWS: {
    en: 'This file has more than 200,000 rows. Split it into smaller files and import them one by one.',
    ro: 'Acest fișier are mai mult de 200.000 de rânduri. Împarte-l în fișiere mai mici și importă-le pe rând.',
    es: 'Este archivo tiene más de 200.000 filas. Divídelo en archivos más pequeños e impórtalos uno a uno.',
  },
  MEMORY: {
    en: 'This file needs more memory to read than one import may take. Split it into smaller files and import them one by one.',
    ro: 'Acest fișier are nevoie de mai multă memorie decât poate folosi un import. Împarte-l în fișiere mai mici și importă-le pe rând.',
    es: 'Este archivo necesita más memoria de la que puede usar una importación. Divídelo en archivos más pequeños e impórtalos uno a uno.',
  },
};

export const importLimitText = (lang: Language, limit: ImportLimit) => LIMITS[limit][lang];
