import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { countryOfLanguage, documentTypeLabel, hasEngineSize, renewalLabel } from '@evdra/domain';
import type { Font } from 'fontkit';
import type { ReportModel } from './report-model.js';
import {
  byFuelStats,
  costRows,
  type Formats,
  formats,
  gapText,
  type ReportTexts,
  renewalGapText,
  reportTexts,
} from './report-texts.js';

// PDF's built-in Helvetica is WinAnsi only (no ș ț ă): the report embeds DejaVu Sans (a free
// licence), shipped by the dejavu-fonts-ttf npm package; pdfkit embeds only the glyphs used.
// Parsed once per process and shared by every document: parsing took ~100 ms per font per report.
// pdfkit and fontkit load with the first report, not at start: ~0.3 s of CPU a start never needs.
const fontDir = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
let libraries:
  | Promise<{ PDFDocument: typeof import('pdfkit'); fonts: { regular: Font; bold: Font } }>
  | undefined;
const loadLibraries = () => {
  libraries ??= Promise.all([import('pdfkit'), import('fontkit')]).then(([pdfkit, fontkit]) => {
    const parse = (file: string) => fontkit.create(readFileSync(join(fontDir, file))) as Font;
    return {
      PDFDocument: pdfkit.default,
      fonts: { regular: parse('DejaVuSans.ttf'), bold: parse('DejaVuSans-Bold.ttf') },
    };
  });
  libraries.catch(() => {
    libraries = undefined; // the next report tries again
  });
  return libraries;
};

const INK = '#1f2933';
const MUTED = '#616e7c';
const LINE = '#d9dee3';
const ACCENT = '#1d6fb8';
const RED = '#c62828';
const M = 48; // margin
const FOOTER = 36;

type Col = { title: string; width: number; align?: 'left' | 'right' };
type Doc = PDFKit.PDFDocument;

/**
 * The history report as an A4 PDF: text is real text (selectable, searchable), charts are vector
 * paths. The document is a stream, already ended: the caller reads it (the report service keeps
 * its bytes). Pages are buffered only to write "Page n of N" in each footer.
 */
export async function renderPdf(model: ReportModel, verifyUrl: string): Promise<Doc> {
  const t = reportTexts(model.lang);
  const f = formats(model.lang, model.owner);
  const {
    PDFDocument,
    fonts: { regular, bold },
  } = await loadLibraries();
  const v = model.vehicle;
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: M, bottom: M + FOOTER, left: M, right: M },
    bufferPages: true,
    info: {
      Title: `${t.title}: ${v.make} ${v.model} ${v.year}`,
      Author: 'Evdra',
      Subject: `${v.registrationNumber} · ${model.code}`,
    },
    lang: model.lang,
    displayTitle: true,
  });
  // pdfkit takes a parsed fontkit font as it takes the file's bytes.
  doc.registerFont('R', regular as never);
  doc.registerFont('B', bold as never);
  const width = doc.page.width - 2 * M;
  const bottom = () => doc.page.height - M - FOOTER;
  const ensure = (h: number) => {
    if (doc.y + h > bottom()) doc.addPage();
  };

  // ── header ──
  doc
    .font('B')
    .fontSize(20)
    .fillColor(INK)
    .text(t.title, M, M, { width: width - 170 });
  doc
    .font('R')
    .fontSize(14)
    .fillColor(ACCENT)
    .text(`${v.make} ${v.model} · ${v.year}`, { width: width - 170 });
  doc
    .fontSize(9)
    .fillColor(MUTED)
    .text(`${t.generated}: ${f.time(model.generatedAt)}`, { width: width - 170 });
  doc.text(`${t.code}: ${model.code}`, { width: width - 170 });
  const headerBottom = doc.y;
  if (model.photo) {
    try {
      doc.image(model.photo, M + width - 160, M, { fit: [160, 110], align: 'right' });
    } catch {
      // a photo the PDF library cannot read is left out, not a failed report
    }
  }
  doc.y = Math.max(headerBottom, model.photo ? M + 116 : headerBottom) + 8;

  // ── vehicle ──
  heading(doc, t.vehicle, width);
  const facts: [string, string][] = [
    [t.make, `${v.make} ${v.model}`],
    [t.year, String(v.year)],
    [t.fuel, t.fuelTypes[v.fuelType]],
    [t.engine, hasEngineSize(v) ? `${f.one(v.engineSize)} L` : '—'],
    [t.registration, v.registrationNumber],
    ...(v.vin ? [[t.vin, v.vin] as [string, string]] : []),
    [t.odometer, f.km(v.odometer)],
    [t.owner, v.ownerUsername],
  ];
  const half = width / 2;
  facts.forEach(([label, value], i) => {
    const x = M + (i % 2) * half;
    if (i % 2 === 0) ensure(30);
    const y = doc.y;
    doc
      .font('R')
      .fontSize(8)
      .fillColor(MUTED)
      .text(label, x, y, { width: half - 10 });
    doc
      .font('B')
      .fontSize(11)
      .fillColor(INK)
      .text(value, x, doc.y, { width: half - 10 });
    if (i % 2 === 0 && i < facts.length - 1) doc.y = y;
    else doc.y += 4;
  });
  doc.x = M;

  // ── services ──
  heading(doc, t.services, width);
  if (model.services.length === 0) note(doc, t.noServices);
  else
    table(
      doc,
      [
        { title: t.date, width: 80 },
        { title: t.km, width: 80, align: 'right' },
        { title: t.price, width: 80, align: 'right' },
        { title: t.description, width: width - 240 },
      ],
      model.services.map((s) => [f.date(s.date), f.km(s.km), f.money(s.price), s.description || '—']),
      bottom,
      // A service whose odometer is below an earlier reading: in red, as its flag under the chart.
      { red: model.services.map((s) => s.rollback) },
    );

  // ── insurance ──
  heading(doc, t.insurance, width);
  // A table's flags stay on the page of its last row (never alone at the top of the next one).
  const gapFlags = model.gaps.map((g) => gapText(t, f, g));
  const renewalFlags = model.renewalGaps.map((g) => renewalGapText(t, f, model.lang, g));
  if (model.insurances.length === 0) note(doc, t.noInsurance);
  else {
    table(
      doc,
      [
        { title: t.provider, width: 130 },
        { title: t.coverage, width: 110 },
        { title: t.validity, width: width - 320 },
        { title: t.price, width: 80, align: 'right' },
      ],
      model.insurances.map((i) => [
        i.provider,
        i.coverageType || '—',
        `${f.date(i.startDate)} – ${f.date(i.endDate)}`,
        f.money(i.price),
      ]),
      bottom,
      { keepWithLast: flagsHeight(doc, gapFlags, width) },
    );
    if (model.gaps.length === 0) note(doc, t.noGaps);
    for (const g of gapFlags) flag(doc, g, width, ensure);
  }
  if (model.renewals.length > 0) {
    doc.moveDown(0.6); // apart from the policies' table and flags above
    table(
      doc,
      [
        { title: t.renewal, width: 240 },
        { title: t.validity, width: width - 320 },
        { title: t.price, width: 80, align: 'right' },
      ],
      model.renewals.map((r) => [
        renewalLabel(r.type, model.lang),
        r.validFrom ? `${f.date(r.validFrom)} – ${f.date(r.validUntil)}` : `– ${f.date(r.validUntil)}`,
        r.price === null ? '—' : f.money(r.price),
      ]),
      bottom,
      { keepWithLast: flagsHeight(doc, renewalFlags, width) },
    );
    for (const g of renewalFlags) flag(doc, g, width, ensure);
  }
  if (model.documents.length > 0) {
    doc.moveDown(0.6);
    const validity = (from: string | null, to: string | null) =>
      from || to ? `${from ? f.date(from) : ''} – ${to ? f.date(to) : ''}` : '—';
    table(
      doc,
      [
        { title: t.document, width: 240 },
        { title: t.number, width: 120 },
        { title: t.validity, width: width - 360 },
      ],
      model.documents.map((d) => [
        documentTypeLabel(d.type, countryOfLanguage(model.lang), model.lang),
        d.number ?? '—',
        validity(d.issuedOn, d.expiresOn),
      ]),
      bottom,
    );
  }

  // ── fuel ──
  heading(doc, t.fuelSection, width, model.fuel.fillUps === 0 ? 20 : 190);
  const consumption = (n: number | null) =>
    n === null ? '—' : f.consumption(n, model.vehicle.fuelType, model.fuel.unit);
  if (model.fuel.fillUps === 0) note(doc, t.noFuel);
  else {
    ensure(40);
    stats(
      doc,
      [
        [t.fillUps, f.int(model.fuel.fillUps)],
        [t.distance, f.km(model.fuel.distance)],
        [t.average, consumption(model.fuel.average)],
        [t.lastYear, consumption(model.fuel.lastYear)],
        ...byFuelStats(model, f, t),
      ],
      width,
    );
    if (model.fuel.byFuel.length > 0) note(doc, t.byFuelNote);
    ensure(150);
    doc.font('B').fontSize(9).fillColor(INK).text(t.monthlyFuel, M, doc.y);
    barChart(doc, model.fuel.monthly, f, M, doc.y + 4, width, 110);
  }

  // ── costs ──
  heading(doc, t.costs, width);
  if (model.years.length === 0) note(doc, t.noCosts);
  else {
    const c = t.categories;
    table(
      doc,
      [
        { title: t.year, width: width - 400 },
        { title: c.fuel, width: 80, align: 'right' },
        { title: c.revisions, width: 80, align: 'right' },
        { title: c.insurance, width: 80, align: 'right' },
        { title: c.expenses, width: 80, align: 'right' },
        { title: t.total, width: 80, align: 'right' },
      ],
      costRows(t, f, model.years, model.total),
      bottom,
      { lastBold: true },
    );
    ensure(40);
    stats(
      doc,
      [
        [t.tco, f.money(model.total.totalCost)],
        [t.kmRecorded, f.km(model.total.totalKm)],
        [
          f.perDistance(t.perKm),
          model.total.costPerKm === null ? '—' : f.moneyPerDistance(model.total.costPerKm),
        ],
      ],
      width,
    );
  }

  // ── odometer ──
  heading(doc, t.odometerSection, width, model.readings.length === 0 ? 20 : 160);
  if (model.readings.length === 0) note(doc, t.noReadings);
  else {
    ensure(160);
    lineChart(doc, model, f, M, doc.y, width, 130);
    if (model.rollbacks.length === 0) note(doc, t.noRollback);
    for (const r of model.rollbacks)
      flag(doc, t.rollback(f.km(r.km), f.date(r.date), f.km(r.before ?? 0)), width, ensure);
  }

  // ── AI evaluation (only with the owner's consent) ──
  if (v.aiEvaluationConsent && v.aiScore !== null) {
    const reason = v.aiScoreReason ? doc.font('R').fontSize(9).heightOfString(v.aiScoreReason, { width }) : 0;
    heading(doc, t.ai, width, 20 + Math.min(reason, 60));
    ensure(30);
    doc
      .font('B')
      .fontSize(11)
      .fillColor(INK)
      .text(`${t.score}: ${f.one(v.aiScore)} / 10`, M, doc.y);
    if (v.aiScoreReason) doc.font('R').fontSize(9).fillColor(INK).text(v.aiScoreReason, { width });
  }
  ensure(20);
  doc.moveDown(1);
  doc.font('R').fontSize(8).fillColor(MUTED).text(t.verifyHint(verifyUrl), M, doc.y, { width });

  // ── the documents' first pages, when the owner ticked it (issue 52): an image per page ──
  if (model.pages && model.pages.length > 0) {
    doc.addPage();
    heading(doc, t.firstPages, width, 20);
    let first = true;
    for (const p of model.pages) {
      const label = [documentTypeLabel(p.type, countryOfLanguage(model.lang), model.lang), p.title, p.number]
        .filter(Boolean)
        .join(' · ');
      if (!p.image) {
        ensure(30);
        doc
          .font('B')
          .fontSize(10)
          .fillColor(INK)
          .text(label, M, doc.y + 6, { width });
        note(doc, t.pdfNotEmbedded);
        continue;
      }
      // One page image per PDF page (the first one shares the heading's page).
      if (!first || doc.y > M + 60) doc.addPage();
      first = false;
      doc
        .font('B')
        .fontSize(10)
        .fillColor(INK)
        .text(label, M, doc.y + 6, { width });
      const top = doc.y + 6;
      try {
        doc.image(p.image, M, top, { fit: [width, bottom() - top], align: 'center' });
      } catch {
        note(doc, t.pdfNotEmbedded);
      }
      doc.y = bottom();
    }
  }

  // ── footers ──
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const y = doc.page.height - M - 14;
    const saved = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .moveTo(M, y - 6)
      .lineTo(M + width, y - 6)
      .lineWidth(0.5)
      .strokeColor(LINE)
      .stroke();
    doc
      .font('R')
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(t.footer(f.time(model.generatedAt), model.code), M, y, { width: width - 90, lineBreak: false });
    doc.text(t.page(i - range.start + 1, range.count), M + width - 90, y, {
      width: 90,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = saved;
  }
  doc.flushPages();
  doc.end();
  return doc;
}

/** A section title, kept on the page with the first `need` points of its content. */
function heading(doc: Doc, title: string, width: number, need = 60) {
  if (doc.y + 30 + need > doc.page.height - M - FOOTER) doc.addPage();
  doc.moveDown(0.8);
  const y = doc.y;
  doc.font('B').fontSize(13).fillColor(ACCENT).text(title, M, y, { width });
  doc
    .moveTo(M, doc.y + 2)
    .lineTo(M + width, doc.y + 2)
    .lineWidth(1)
    .strokeColor(ACCENT)
    .stroke();
  doc.y += 8;
}

function note(doc: Doc, text: string) {
  doc
    .font('R')
    .fontSize(9)
    .fillColor(MUTED)
    .text(text, M, doc.y + 2);
}

/** The height `flag` takes for each of these texts. */
function flagsHeight(doc: Doc, texts: string[], width: number) {
  doc.font('B').fontSize(9);
  return texts.reduce((h, text) => h + flagHeight(doc, text, width), 0);
}
const flagHeight = (doc: Doc, text: string, width: number) =>
  4 +
  doc
    .font('B')
    .fontSize(9)
    .heightOfString(text, { width: width - 14 });

function flag(doc: Doc, text: string, width: number, ensure: (h: number) => void) {
  ensure(flagHeight(doc, text, width));
  const y = doc.y + 3;
  doc.circle(M + 4, y + 5, 3.5).fill(RED);
  doc
    .font('B')
    .fontSize(9)
    .fillColor(RED)
    .text(text, M + 14, y, { width: width - 14 });
  doc.x = M;
}

function stats(doc: Doc, items: [string, string][], width: number) {
  const w = width / items.length;
  const y = doc.y + 4;
  let end = y;
  items.forEach(([label, value], i) => {
    doc
      .font('R')
      .fontSize(8)
      .fillColor(MUTED)
      .text(label, M + i * w, y, { width: w - 8 });
    doc
      .font('B')
      .fontSize(11)
      .fillColor(INK)
      .text(value, M + i * w, doc.y + 1, { width: w - 8 });
    end = Math.max(end, doc.y);
  });
  doc.x = M;
  doc.y = end + 8;
}

/**
 * A table that breaks across pages, repeating its header. `lastBold` sets the last row in bold (a
 * total); `red[i]` sets row i in red (a flagged one); `keepWithLast` is the height of what follows
 * the table and must stay on the last row's page (its flags).
 */
function table(
  doc: Doc,
  cols: Col[],
  rows: string[][],
  bottom: () => number,
  {
    lastBold = false,
    red = [],
    keepWithLast = 0,
  }: { lastBold?: boolean; red?: boolean[]; keepWithLast?: number } = {},
) {
  const pad = 4;
  const header = () => {
    const y = doc.y;
    doc
      .rect(
        M,
        y,
        cols.reduce((s, c) => s + c.width, 0),
        16,
      )
      .fill('#eef2f6');
    let x = M;
    for (const c of cols) {
      doc
        .font('B')
        .fontSize(8)
        .fillColor(MUTED)
        .text(c.title, x + pad, y + 4, {
          width: c.width - 2 * pad,
          align: c.align ?? 'left',
          lineBreak: false,
        });
      x += c.width;
    }
    doc.y = y + 18;
  };
  header();
  rows.forEach((row, r) => {
    const isBold = lastBold && r === rows.length - 1;
    doc.font(isBold ? 'B' : 'R').fontSize(8.5);
    const h =
      Math.max(
        ...row.map((cell, i) => doc.heightOfString(cell, { width: (cols[i]?.width ?? 0) - 2 * pad })),
      ) + 6;
    const last = r === rows.length - 1;
    // The last row takes what must follow it along (unless that alone would fill a page).
    const need = h + (last && keepWithLast < 200 ? keepWithLast : 0);
    if (doc.y + need > bottom()) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    let x = M;
    row.forEach((cell, i) => {
      const c = cols[i] as Col;
      doc
        .font(isBold ? 'B' : 'R')
        .fontSize(8.5)
        .fillColor(red[r] ? RED : INK)
        .text(cell, x + pad, y + 3, { width: c.width - 2 * pad, align: c.align ?? 'left' });
      x += c.width;
    });
    doc
      .moveTo(M, y + h)
      .lineTo(x, y + h)
      .lineWidth(0.4)
      .strokeColor(LINE)
      .stroke();
    doc.y = y + h + 1;
  });
  doc.x = M;
}

/** Vertical bars of the monthly fuel cost, as vector rectangles, with the top value and year labels. */
function barChart(
  doc: Doc,
  months: { month: string; cost: number }[],
  f: Formats,
  x: number,
  y: number,
  w: number,
  h: number,
) {
  const axis = 52;
  const plotW = w - axis;
  const plotH = h - 16;
  const max = Math.max(...months.map((m) => m.cost), 1);
  doc.lineWidth(0.4).strokeColor(LINE);
  for (const k of [0, 0.5, 1]) {
    const gy = y + plotH - k * plotH;
    doc
      .moveTo(x + axis, gy)
      .lineTo(x + w, gy)
      .stroke();
    doc
      .font('R')
      .fontSize(6.5)
      .fillColor(MUTED)
      .text(f.money(Math.round(max * k)), x, gy - 4, { width: axis - 4, align: 'right', lineBreak: false });
  }
  const slot = plotW / months.length;
  months.forEach((m, i) => {
    const bh = (m.cost / max) * plotH;
    if (bh > 0) doc.rect(x + axis + i * slot + slot * 0.15, y + plotH - bh, slot * 0.7, bh).fill(ACCENT);
    // Every third month counted back from the last, centred under its bar, with its year ('Dec 2024').
    if ((months.length - 1 - i) % 3 === 0)
      doc
        .font('R')
        .fontSize(6.5)
        .fillColor(MUTED)
        .text(f.monthYear(m.month), x + axis + (i - 1) * slot, y + plotH + 3, {
          width: 3 * slot,
          align: 'center',
          lineBreak: false,
        });
  });
  doc.x = M;
  doc.y = y + h + 6;
}

/** Odometer over time: a vector line through the readings, rollbacks as red dots. */
function lineChart(doc: Doc, model: ReportModel, f: Formats, x: number, y: number, w: number, h: number) {
  const readings = model.readings;
  const axis = 60;
  const plotW = w - axis - 6;
  const plotH = h - 16;
  const times = readings.map((r) => Date.parse(r.date));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const kms = readings.map((r) => r.km);
  const k0 = Math.min(...kms);
  const k1 = Math.max(...kms);
  const px = (t: number) => x + axis + (t1 === t0 ? plotW / 2 : ((t - t0) / (t1 - t0)) * plotW);
  const py = (km: number) => y + plotH - (k1 === k0 ? plotH / 2 : ((km - k0) / (k1 - k0)) * plotH);
  doc.lineWidth(0.4).strokeColor(LINE);
  for (const km of k1 === k0 ? [k0] : [k0, (k0 + k1) / 2, k1]) {
    doc
      .moveTo(x + axis, py(km))
      .lineTo(x + w, py(km))
      .stroke();
    doc
      .font('R')
      .fontSize(6.5)
      .fillColor(MUTED)
      .text(f.km(Math.round(km)), x, py(km) - 4, { width: axis - 4, align: 'right', lineBreak: false });
  }
  const y0 = new Date(t0).getUTCFullYear();
  const y1 = new Date(t1).getUTCFullYear();
  const under = (text: string, at: number, width: number, align: 'left' | 'center' | 'right') =>
    doc
      .font('R')
      .fontSize(6.5)
      .fillColor(MUTED)
      .text(text, at, y + plotH + 3, { width, align, lineBreak: false });
  if (y1 - y0 < 3) {
    // A short history: its first and last days (a lone year says nothing about when).
    under(f.date(readings[0]?.date ?? ''), x + axis, 80, 'left');
    if (t1 > t0) under(f.date(readings.at(-1)?.date ?? ''), x + axis + plotW - 80, 80, 'right');
  } else {
    const step = Math.max(1, Math.ceil((y1 - y0 + 1) / 10));
    for (let year = y0; year <= y1; year += step) {
      const t = Math.max(t0, Date.UTC(year, 0, 1));
      // Not left of the plot, where it would sit under the lowest km label.
      const left = Math.max(x + axis, px(t) - 15);
      under(String(year), left, 30, left > px(t) - 15 ? 'left' : 'center');
    }
  }
  readings.forEach((r, i) => {
    if (i === 0) doc.moveTo(px(times[i] as number), py(r.km));
    else doc.lineTo(px(times[i] as number), py(r.km));
  });
  doc.lineWidth(1.2).strokeColor(ACCENT).stroke();
  readings.forEach((r, i) => {
    if (r.rollback) doc.circle(px(times[i] as number), py(r.km), 3.2).fill(RED);
  });
  doc.x = M;
  doc.y = y + h + 6;
}

export type { ReportTexts };
