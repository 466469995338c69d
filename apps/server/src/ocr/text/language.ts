/** The receipt's language, by the words it uses. */
export type Language = 'en' | 'ro' | 'es';

const LANG_WORDS: Record<Language, RegExp> = {
  ro: /\b(BON FISCAL|TOTAL DE PLATA|LEI|DATA|PRET|CANTITATE|LITRI|MOTORINA|BENZINA|ASIGURARE|POLITA|SERIA|VALABILA|PANA LA|KILOMETRAJ|FACTURA|LUCRARE|MANOPERA|PIESE|TVA|MULTUMIM|PARCARE|SPALATORIE|ROVINIETA|PRIMA DE)\b/g,
  es: /\b(FECHA|IMPORTE|TOTAL A PAGAR|LITROS|IVA|PRECIO|FACTURA SIMPLIFICADA|GASOLEO|GASOLINA|POLIZA|VENCIMIENTO|EFECTO|KILOMETROS|MATRICULA|CONCEPTO|MANO DE OBRA|RECAMBIOS|GRACIAS|TARJETA|APARCAMIENTO|PEAJE|SEGURO|TOMADOR)\b/g,
  en: /\b(DATE|TOTAL DUE|VAT|PRICE|RECEIPT|THANK|VOLUME|UNLEADED|POLICY|PREMIUM|EXPIRY|EFFECTIVE|MILEAGE|ODOMETER|INVOICE|LABOUR|PARTS|PAYMENT|CAR PARK|TOLL|WASH|INSURANCE|COVER|AMOUNT)\b/g,
};

/** The receipt's language by its words; `fallback` (the user's language) when nothing stands out. */
export function detectLanguage(norm: string, fallback: Language): Language {
  let best: Language = fallback;
  let bestScore = 0;
  for (const lang of ['ro', 'es', 'en'] as const) {
    const score = (norm.match(LANG_WORDS[lang]) ?? []).length;
    if (score > bestScore) {
      best = lang;
      bestScore = score;
    }
  }
  return best;
}
