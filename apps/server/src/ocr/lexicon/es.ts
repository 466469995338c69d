/** Spanish: the words tickets, service invoices and pólizas from Spain print (without accents). */
import type { Lexicon } from './types.js';

/** "Póliza" as printed and as the OCR reads it: "P6LIZA", "P0LIZA", "Pohiza". */
const POLIZA = 'P[O06][LIH1][I1L]?Z[A4]';

export const es: Lexicon = {
  detect: [
    'FECHA',
    'IMPORTE',
    'TOTAL A PAGAR',
    'LITROS',
    'IVA',
    'PRECIO',
    'FACTURA SIMPLIFICADA',
    'GASOLEO',
    'GASOLINA',
    'POLIZA',
    'VENCIMIENTO',
    'EFECTO',
    'KILOMETROS',
    'MATRICULA',
    'CONCEPTO',
    'MANO DE OBRA',
    'RECAMBIOS',
    'GRACIAS',
    'TARJETA',
    'APARCAMIENTO',
    'PEAJE',
    'SEGURO',
    'TOMADOR',
  ],
  months: [
    ['ENERO', 'ENE'],
    ['FEBRERO'],
    ['MARZO'],
    ['ABRIL', 'ABR'],
    ['MAYO'],
    ['JUNIO'],
    ['JULIO'],
    ['AGOSTO', 'AGO'],
    ['SEPTIEMBRE', 'SETIEMBRE'],
    ['OCTUBRE'],
    ['NOVIEMBRE'],
    ['DICIEMBRE', 'DIC'],
  ],
  gluedWords: `
    aceite anual aparcamiento autopista bateria cambio centro circulacion completo correa del
    discos distribucion embrague en filtros filtro freno frenos impuesto juego lavado mano
    mantenimiento neumaticos obra oficial pastillas peaje reparacion revision sustitucion y`
    .trim()
    .split(/\s+/),
  // PaddleOCR drops the accent of "-ción", "-sión".
  accents: [[/(?<=[cs])ion\b/g, 'ión']],

  dateLabel: ['FECHA'],
  otherDate: ['PROXIM', 'VENCIM', '\\bITV\\b', 'MATRICULACION', 'GARANTI'],
  dueLetters: ['VENCIMIENTO'],
  days: ['DIAS'],

  // Spaces optional inside a label: PaddleOCR prints "IMPORTETOTAL".
  total: ['TOTAL', 'IMPORTE', 'TOTAL ?EUR(?:OS)?'],
  finalTotal: ['TOTAL ?A ?PAGAR', 'IMPORTE ?TOTAL'],
  roundedTotal: [],
  notTotal: ['SUB[\\s-]?TOTAL', 'IVA', 'BASE IMPONIBLE', 'DESCUENTO', 'TARJETA', 'CAMBIO'],
  notPaidTotal: ['CANTIDAD', 'ARTICULOS', 'ENTREGADO'],
  beforeTax: ['SIN IVA'],
  tax: ['IVA', 'IMPUESTOS?'],
  taxIncluded: ['INCLUIDO'],
  rounding: ['REDONDEO'],
  paid: ['EFECTIVO', 'ENTREGADO', 'TARJETA', 'PAGO'],
  change: ['CAMBIO', 'VUELTA', 'A DEVOLVER'],
  changeBeforeNumber: [],
  vat: ['IVA'],
  net: ['BASE IMPONIBLE', 'SIN IVA', '\\bNETO\\b'],
  notVat: ['\\b(?:INCLUIDO|CIF|NIF)\\b', 'BASE', 'SIN IVA'],

  litreUnit: ['LITROS', 'LITRO'],
  quantity: ['LITROS', 'CANTIDAD', 'ENERGIA', 'VOLUMEN'],
  pricePerLitre: ['PRECIO\\s*\\/\\s*(L|KWH|KG|LITRO)', 'PRECIO\\s*(POR\\s*)?LITRO', 'PRECIO UNIDAD'],
  tableHeadings: {
    ppl: ['PRE[CT]IO?\\s*\\/\\s*L[A-Z]*', 'PRECIO ?(?:POR ?)?LITRO\\b', 'PVP\\s*\\/\\s*L\\b', '\\bPRECIO\\b'],
    qty: ['LITROS', 'VOLUMEN?', 'CANTIDAD', '\\bCANT\\b'],
    amount: ['IMPORTE', '\\bEUROS?\\b', '\\bTOTAL\\b'],
  },
  // "KILOMETROS" with a letter or two misread.
  odometer: ['ODOMETRO', 'KIL[A-Z]?[MN][A-Z]?TR[A-Z]*'],
  odometerLetters: ['KILOMETROS', 'KILOMETRAJE', 'ODOMETRO'],
  notOdometer: ['PROXIM', 'CADA', 'INTERVAL', 'GARANTI', 'AUTONOM'],
  fuel: {
    electric: ['RECARGA', 'CARGADOR', 'PUNTO DE CARGA', 'ELECTROLINERA', 'ENERGIA ELECTRICA'],
    lpg: ['GLP'],
    cng: ['\\bGNC\\b', '\\bGNV\\b', 'GAS NATURAL (?:COMPRIMIDO|VEHICULAR)'],
    diesel: ['GASOLEO', 'GASOIL'],
    petrol: ['GASOLINA', 'SIN ?PLOMO', '\\bSP ?9[58]\\b'],
  },

  expenseTypes: {
    Parking: ['APARCAMIENTO', 'ESTACIONAMIENTO', '\\bSABA\\b'],
    // PEAGE: the French motorways' tolls, on the way from Spain.
    Tolls: ['PEAJE', 'AUTOPISTA', 'PEAGE'],
    Wash: ['LAVADO', 'LAVADERO', 'AUTOLAVADO'],
    Tyres: ['NEUMATICO'],
    Tax: ['IMPUESTO', '\\bIVTM\\b'],
    Repair: ['REPARACION', 'CHAPA'],
    Maintenance: ['MANTENIMIENTO', 'ACEITE', 'FILTR'],
    Accessories: ['ACCESORI'],
  },
  workLabel: ['CONCEPTO', 'TRABAJOS?(?:\\s*REALIZADOS?|\\s*EFECTUADOS?)?', 'SERVICIO', 'DESCRIPCION'],
  workLetters: ['CONCEPTO', 'TRABAJO', 'TRABAJOS'],
  serviceWork: ['REVISION', 'CAMBIO', 'SUSTITUCION', 'DISTRIBUCION', 'MANTENIMIENTO', 'FRENO', 'ACEITE'],
  partsRow: ['RECAMBIOS', 'REPUESTOS'],
  companyForm: ['S\\.?L', 'S\\.?A'],

  insurers: [
    ['MAPFRE', 'Mapfre'],
    ['LINEA ?DIRECTA', 'Línea Directa'],
    ['MUTUA ?MADRILENA', 'Mutua Madrileña'],
    ['AXA', 'AXA Seguros'],
    ['ALLIANZ ?SEGUROS', 'Allianz Seguros'],
    ['REALE', 'Reale Seguros'],
    ['SANTALUCIA', 'Santalucía'],
  ],
  insuranceHeading: ['POLI', 'SEGURO'],
  covers: [
    ['TERCEROS ?AMPLIADO', 'Terceros ampliado'],
    ['TODO ?RIESGO', 'Todo riesgo'],
    ['TERCEROS', 'Terceros'],
  ],
  coverLabel: ['MODAL[A-Z]{3,5}', 'TIPO DE SEGURO', 'COBERTURA'],
  coverLetters: ['COBERTURA', 'MODALIDAD'],
  coverLimit: ['DANOS', 'HASTA'],
  // "Nº de póliza", "Número de póliza", "Póliza nº" ("N?" and "N9": the OCR's º).
  policyLabel: [
    `(?:N\\S{0,2}|NUMERO)\\s*(?:DE\\s*)?${POLIZA}`,
    // "Póliza na 31860977": its º read as an a.
    `${POLIZA}(?:\\s*\\/\\s*(?:SUPLEMENTO|CERTIFICADO|RECIBO))?\\s*(?:N(?:[°º?]|9(?=[A-Z]))|N[OA]?(?![A-Z])\\.?|NUM(?:ERO)?(?![A-Z])\\.?)?`,
  ],
  policyHeading: [POLIZA, `N\\S{0,2}\\s*(?:DE\\s*)?${POLIZA}`],
  premiumWord: ['PRIMA'],
  premiumTotal: ['IMPORTE', 'TOTAL A PAGAR', 'TOTAL'],
  finalPremium: ['PRIMA (ANUAL|TOTAL)', 'TOTAL A PAGAR', 'IMPORTE TOTAL', 'TOTAL ANUAL'],
  premiumPart: ['\\bNETO\\b', '\\bBASE\\b', 'DESCUENTO', 'BONIFICACI'],
  premiumTax: ['IVA', 'IMPUESTO'],
  premiumLetters: ['TOTALAPAGAR', 'PRIMATOTAL', 'PRIMATOTALANUAL', 'IMPORTETOTAL'],
  dateRoles: {
    other: ['NACIMIENTO', 'CARNET', 'PERMIS[A-Z]*', 'MATRICULACION'],
    // "Fecha de emisi6n", "Emtida": as the OCR reads them.
    issue: ['EMI[ST][A-Z0-9]*', 'EMTID[AO]', 'EXPEDICION'],
    start: ['FECHA\\s*(?:DE\\s*)?EFECTO', '\\bE[LF]{0,2}ECTO\\b', 'DESDE', 'INICIO'],
    end: ['VENCIM[A-Z]*', 'HASTA', '\\bFIN\\b'],
    range: ['PERIOD', 'DURACION', 'VIGENCIA'],
  },
  instalment: [
    'CUOTAS?',
    'FRACCION(ES|AMIENTO)?',
    'PLAZOS?',
    'RECIBOS?',
    'MENSUAL',
    'TRIMESTRIAL',
    'SEMESTRIAL',
  ],
  reminders: ['AVISO', 'RECORDATORIO'],
  reminderLetters: ['AVISODERENOVACION', 'RECORDATORIODERENOVACION', 'AVISOS'],
  no: ['NO'],
};
