import {
  countryOfLanguage,
  documentTypeLabel,
  hasEngineSize,
  type Language,
  renewalLabel,
} from '@evdra/domain';
import type { ReportModel } from './report-model.js';
import { byFuelStats, costRows, formats, gapText, renewalGapText, reportTexts } from './report-texts.js';

const esc = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

const STYLE = `
:root{--bg:#f4f6f8;--card:#fff;--ink:#1f2933;--muted:#5f6b78;--line:#dde2e7;--accent:#1d6fb8;--red:#c62828;--head:#eef2f6;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#11161c;--card:#1a2129;--ink:#e6eaee;--muted:#9aa6b2;--line:#2c3640;--accent:#5aa6ec;--red:#ff6b6b;--head:#222b35}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:880px;margin:0 auto;padding:16px}
header.top{display:flex;gap:16px;align-items:flex-start;justify-content:space-between;flex-wrap:wrap;margin:8px 0 16px}
h1{font-size:1.5rem;margin:0}h1+p{margin:2px 0 0;color:var(--accent);font-size:1.15rem;font-weight:600}
.meta{color:var(--muted);font-size:.85rem;margin-top:6px}
.btn{display:inline-block;background:var(--accent);color:#fff;text-decoration:none;padding:10px 16px;border-radius:8px;font-weight:600;white-space:nowrap}
@media (prefers-color-scheme:dark){.btn{color:#0d1117}}
section{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:16px;margin:0 0 14px}
h2{font-size:1.1rem;margin:0 0 10px;color:var(--accent)}
.photo{width:100%;max-height:320px;object-fit:cover;border-radius:12px;margin-bottom:14px;display:block}
dl{display:grid;grid-template-columns:repeat(auto-fill,minmax(140px,1fr));gap:10px 16px;margin:0}
dt{font-size:.78rem;color:var(--muted)}dd{margin:0;font-weight:600}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;font-size:.9rem}
th{background:var(--head);color:var(--muted);font-weight:600;text-align:left;font-size:.78rem}
th,td{padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}
.num{text-align:right}td{white-space:nowrap}td.wide{white-space:normal;min-width:200px}tr.total td{font-weight:700}tr.rb td{color:var(--red);font-weight:600}
.flag{color:var(--red);font-weight:600;margin:8px 0 0;padding-left:18px;position:relative}
.flag::before{content:"";position:absolute;left:2px;top:.45em;width:9px;height:9px;border-radius:50%;background:var(--red)}
.note{color:var(--muted);margin:8px 0 0}.sub{height:14px}.chart-title{font-size:.9rem;margin-top:14px}
svg{width:100%;height:auto;display:block;margin-top:8px}svg text{fill:var(--muted);font-size:10px}
.bar{fill:var(--accent)}.grid{stroke:var(--line);stroke-width:1}.line{fill:none;stroke:var(--accent);stroke-width:2}.rb{fill:var(--red)}
.code{font-family:ui-monospace,monospace;font-weight:700;letter-spacing:.05em}
.verdict{border-width:2px}.verdict.ok{border-color:#2e7d32}.verdict.bad{border-color:var(--red)}
.verdict h1+p{color:inherit;font-size:1rem;font-weight:400;margin:0 0 12px}.verdict.ok h1{color:#2e7d32}.verdict.bad h1{color:var(--red)}.verdict h1{margin-bottom:8px}
@media (prefers-color-scheme:dark){.verdict.ok{border-color:#66bb6a}.verdict.ok h1{color:#66bb6a}}
.ask{display:flex;gap:8px;flex-wrap:wrap}.ask input[name=code]{flex:1 1 180px;min-width:0;font:inherit;font-family:ui-monospace,monospace;text-transform:uppercase;padding:9px 10px;border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--ink)}
.ask .btn{border:0;cursor:pointer;font:inherit;font-weight:600}
footer{color:var(--muted);font-size:.8rem;text-align:center;padding:8px 0 24px}
@media (max-width:560px){main{padding:10px}section{padding:12px}h1{font-size:1.25rem}svg{overflow:visible}svg text{font-size:12px}
table{font-size:.8rem}th,td{padding:5px 5px}.btn{width:100%;text-align:center}
table.stack thead{display:none}table.stack tr{display:flex;flex-wrap:wrap;gap:2px 14px;padding:8px 0;border-bottom:1px solid var(--line)}
table.stack td{border:0;padding:0}table.stack td.num{text-align:left}table.stack td.wide{flex-basis:100%;min-width:0;color:var(--muted)}
table.labelled td:first-child{flex-basis:100%;font-weight:600}table.labelled td[data-label]::before{content:attr(data-label) ": ";color:var(--muted)}}
`;

function page(lang: Language, title: string, body: string) {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow">
<meta name="referrer" content="no-referrer">
<title>${esc(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** The public page's 404: the same look, no detail of why. */
export function notFoundHtml(lang: Language): string {
  const t = reportTexts(lang);
  return page(
    lang,
    t.notFoundTitle,
    `<section><h1>${esc(t.notFoundTitle)}</h1><p>${esc(t.notFound)}</p></section>`,
  );
}

/**
 * The page the printed report's footer points to: whether the code is genuine and, if so, the car,
 * the report's date and the odometer then, to compare with the paper; and a box to type a code.
 */
export function verifyHtml(
  lang: Language,
  code: string,
  found?: {
    vehicle: { make: string; model: string; year: number; registrationNumber: string };
    generatedAt: string;
    odometer: number;
  },
): string {
  const t = reportTexts(lang);
  const f = formats(lang);
  const result = !code
    ? `<h1>${esc(t.verifyTitle)}</h1>`
    : found
      ? `<section class="verdict ok"><h1>${esc(t.genuine)}</h1><p>${esc(t.genuineText)}</p>
<dl><div><dt>${esc(t.code)}</dt><dd class="code">${esc(code)}</dd></div>
<div><dt>${esc(t.make)}</dt><dd>${esc(`${found.vehicle.make} ${found.vehicle.model} · ${found.vehicle.year}`)}</dd></div>
<div><dt>${esc(t.registration)}</dt><dd>${esc(found.vehicle.registrationNumber)}</dd></div>
<div><dt>${esc(t.generated)}</dt><dd>${esc(f.time(new Date(found.generatedAt)))}</dd></div>
<div><dt>${esc(t.odometerThen)}</dt><dd>${esc(f.km(found.odometer))}</dd></div></dl></section>`
      : `<section class="verdict bad"><h1>${esc(t.notGenuine)}</h1><p>${esc(t.notGenuineText)}</p>
<p>${esc(t.code)}: <span class="code">${esc(code)}</span></p></section>`;
  const form = `<section><form method="get" action="/v"><label for="code"><h2>${esc(t.verifyAnother)}</h2></label>
<div class="ask"><input id="code" name="code" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="40" placeholder="ABCD-EFGH-JK" required><input type="hidden" name="lang" value="${lang}"><button class="btn" type="submit">${esc(t.check)}</button></div></form></section>`;
  const title = !code ? t.verifyTitle : `${t.verifyTitle}: ${found ? t.genuine : t.notGenuine}`;
  return page(lang, title, result + form);
}

/** The read-only report page of a share link: the PDF's content, with inline SVG charts. */
export function reportHtml(
  m: ReportModel,
  o: { pdfUrl: string; photoUrl?: string; expiresAt: Date; verifyUrl: string },
): string {
  const t = reportTexts(m.lang);
  const f = formats(m.lang, m.owner);
  const v = m.vehicle;
  const dash = '—';
  /**
   * On a phone, `stack`: each row becomes a block, its last column (free text) on a line of its own;
   * `labelled`: each row becomes a block headed by its first cell, every other figure named (a table
   * of figures too wide for 360 px).
   */
  const table = (
    heads: [string, boolean][],
    rows: string[][],
    totalLast = false,
    layout: 'stack' | 'labelled' | '' = '',
    red: boolean[] = [],
  ) =>
    `<div class="scroll"><table${layout ? ` class="stack ${layout}"` : ''}><thead><tr>${heads
      .map(([h, num]) => `<th${num ? ' class="num"' : ''}>${esc(h)}</th>`)
      .join('')}</tr></thead><tbody>${rows
      .map(
        (r, i) =>
          `<tr${totalLast && i === rows.length - 1 ? ' class="total"' : red[i] ? ' class="rb"' : ''}>${r
            .map((c, j) => {
              const cls = heads[j]?.[1] ? 'num' : layout === 'stack' && j === r.length - 1 ? 'wide' : '';
              const label = layout === 'labelled' && j > 0 ? ` data-label="${esc(heads[j]?.[0] ?? '')}"` : '';
              return `<td${cls ? ` class="${cls}"` : ''}${label}>${esc(c)}</td>`;
            })
            .join('')}</tr>`,
      )
      .join('')}</tbody></table></div>`;
  const note = (s: string) => `<p class="note">${esc(s)}</p>`;
  const flag = (s: string) => `<p class="flag">${esc(s)}</p>`;
  const stats = (items: [string, string][]) =>
    `<dl>${items.map(([k, val]) => `<div><dt>${esc(k)}</dt><dd>${esc(val)}</dd></div>`).join('')}</dl>`;
  const consumption = (n: number | null) =>
    n === null ? dash : f.consumption(n, m.vehicle.fuelType, m.fuel.unit);

  const facts: [string, string][] = [
    [t.make, `${v.make} ${v.model}`],
    [t.year, String(v.year)],
    [t.fuel, t.fuelTypes[v.fuelType]],
    [t.engine, hasEngineSize(v) ? `${f.one(v.engineSize)} L` : dash],
    [t.registration, v.registrationNumber],
    ...(v.vin ? [[t.vin, v.vin] as [string, string]] : []),
    [t.odometer, f.km(v.odometer)],
    [t.owner, v.ownerUsername],
  ];
  const services =
    m.services.length === 0
      ? note(t.noServices)
      : table(
          [
            [t.date, false],
            [t.km, true],
            [t.price, true],
            [t.description, false],
          ],
          m.services.map((s) => [f.date(s.date), f.km(s.km), f.money(s.price), s.description || dash]),
          false,
          'stack',
          m.services.map((s) => s.rollback),
        );
  const insurance =
    m.insurances.length === 0
      ? note(t.noInsurance)
      : table(
          [
            [t.provider, false],
            [t.coverage, false],
            [t.validity, false],
            [t.price, true],
          ],
          m.insurances.map((i) => [
            i.provider,
            i.coverageType || dash,
            `${f.date(i.startDate)} – ${f.date(i.endDate)}`,
            f.money(i.price),
          ]),
          false,
          'stack',
        ) + (m.gaps.length === 0 ? note(t.noGaps) : m.gaps.map((g) => flag(gapText(t, f, g))).join(''));
  const renewals =
    m.renewals.length === 0
      ? ''
      : '<div class="sub"></div>' +
        table(
          [
            [t.renewal, false],
            [t.validity, false],
            [t.price, true],
          ],
          m.renewals.map((r) => [
            renewalLabel(r.type, m.lang),
            r.validFrom ? `${f.date(r.validFrom)} – ${f.date(r.validUntil)}` : `– ${f.date(r.validUntil)}`,
            r.price === null ? dash : f.money(r.price),
          ]),
        ) +
        m.renewalGaps.map((g) => flag(renewalGapText(t, f, m.lang, g))).join('');
  const validity = (from: string | null, to: string | null) =>
    from || to ? `${from ? f.date(from) : ''} – ${to ? f.date(to) : ''}` : dash;
  const documents =
    m.documents.length === 0
      ? ''
      : '<div class="sub"></div>' +
        table(
          [
            [t.document, false],
            [t.number, false],
            [t.validity, false],
          ],
          m.documents.map((d) => [
            documentTypeLabel(d.type, countryOfLanguage(m.lang), m.lang),
            d.number ?? dash,
            validity(d.issuedOn, d.expiresOn),
          ]),
        );
  const fuel =
    m.fuel.fillUps === 0
      ? note(t.noFuel)
      : `${stats([
          [t.fillUps, f.int(m.fuel.fillUps)],
          [t.distance, f.km(m.fuel.distance)],
          [t.average, consumption(m.fuel.average)],
          [t.lastYear, consumption(m.fuel.lastYear)],
          ...byFuelStats(m, f, t),
        ])}${m.fuel.byFuel.length > 0 ? note(t.byFuelNote) : ''}<h3 class="note chart-title">${esc(t.monthlyFuel)}</h3>${barSvg(m, f)}`;
  const c = t.categories;
  const costs =
    m.years.length === 0
      ? note(t.noCosts)
      : table(
          [
            [t.year, false],
            [c.fuel, true],
            [c.revisions, true],
            [c.insurance, true],
            [c.expenses, true],
            [t.total, true],
          ],
          costRows(t, f, m.years, m.total),
          true,
          'labelled',
        ) +
        stats([
          [t.tco, f.money(m.total.totalCost)],
          [t.kmRecorded, f.km(m.total.totalKm)],
          [f.perDistance(t.perKm), m.total.costPerKm === null ? dash : f.moneyPerDistance(m.total.costPerKm)],
        ]);
  const odometer =
    m.readings.length === 0
      ? note(t.noReadings)
      : lineSvg(m, f) +
        (m.rollbacks.length === 0
          ? note(t.noRollback)
          : m.rollbacks
              .map((r) => flag(t.rollback(f.km(r.km), f.date(r.date), f.km(r.before ?? 0))))
              .join(''));
  const ai =
    v.aiEvaluationConsent && v.aiScore !== null
      ? `<section><h2>${esc(t.ai)}</h2><p><strong>${esc(t.score)}: ${esc(f.one(v.aiScore))} / 10</strong></p>${
          v.aiScoreReason ? `<p>${esc(v.aiScoreReason)}</p>` : ''
        }</section>`
      : '';
  const body = `
<header class="top"><div><h1>${esc(t.title)}</h1><p>${esc(`${v.make} ${v.model} · ${v.year}`)}</p>
<div class="meta">${esc(t.generated)}: ${esc(f.time(m.generatedAt))}<br>${esc(t.code)}: <span class="code">${esc(m.code)}</span></div></div>
<a class="btn" href="${esc(o.pdfUrl)}" download>${esc(t.download)}</a></header>
${o.photoUrl ? `<img class="photo" src="${esc(o.photoUrl)}" alt="${esc(`${v.make} ${v.model}`)}">` : ''}
<section><h2>${esc(t.vehicle)}</h2>${stats(facts)}</section>
<section><h2>${esc(t.services)}</h2>${services}</section>
<section><h2>${esc(t.insurance)}</h2>${insurance}${renewals}${documents}</section>
<section><h2>${esc(t.fuelSection)}</h2>${fuel}</section>
<section><h2>${esc(t.costs)}</h2>${costs}</section>
<section><h2>${esc(t.odometerSection)}</h2>${odometer}</section>
${ai}
<footer>${esc(t.readOnly)} ${esc(t.expires)} ${esc(f.time(o.expiresAt))}.<br>${esc(t.verifyHint(o.verifyUrl))}</footer>`;
  return page(m.lang, `${t.title}: ${v.make} ${v.model} ${v.year}`, body);
}

type F = ReturnType<typeof formats>;

function barSvg(m: ReportModel, f: F): string {
  const W = 640;
  const H = 170;
  const axis = 64;
  const plotH = H - 22;
  const months = m.fuel.monthly;
  const max = Math.max(...months.map((x) => x.cost), 1);
  const slot = (W - axis) / months.length;
  const grid = [0, 0.5, 1]
    .map((k) => {
      const y = (plotH - k * plotH + 4).toFixed(1);
      return `<line class="grid" x1="${axis}" x2="${W}" y1="${y}" y2="${y}"/><text x="${axis - 6}" y="${y}" text-anchor="end" dy="3">${esc(f.money(Math.round(max * k)))}</text>`;
    })
    .join('');
  const bars = months
    .map((x, i) => {
      const h = (x.cost / max) * plotH;
      const label =
        (months.length - 1 - i) % 3 === 0
          ? `<text x="${(axis + i * slot + slot / 2).toFixed(1)}" y="${H - 4}" text-anchor="middle">${esc(f.monthYear(x.month))}</text>`
          : '';
      const bar =
        h > 0
          ? `<rect class="bar" x="${(axis + i * slot + slot * 0.15).toFixed(1)}" y="${(plotH - h + 4).toFixed(1)}" width="${(slot * 0.7).toFixed(1)}" height="${h.toFixed(1)}"><title>${esc(`${f.month(x.month)} ${x.month.slice(0, 4)}: ${f.money(x.cost)}`)}</title></rect>`
          : '';
      return bar + label;
    })
    .join('');
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(reportTexts(m.lang).monthlyFuel)}">${grid}${bars}</svg>`;
}

function lineSvg(m: ReportModel, f: F): string {
  const W = 640;
  const H = 190;
  const axis = 76;
  const plotW = W - axis - 10;
  const plotH = H - 26;
  const r = m.readings;
  const ts = r.map((x) => Date.parse(x.date));
  const t0 = Math.min(...ts);
  const t1 = Math.max(...ts);
  const k0 = Math.min(...r.map((x) => x.km));
  const k1 = Math.max(...r.map((x) => x.km));
  const px = (t: number) => axis + (t1 === t0 ? plotW / 2 : ((t - t0) / (t1 - t0)) * plotW);
  const py = (k: number) => 6 + (k1 === k0 ? plotH / 2 : plotH - ((k - k0) / (k1 - k0)) * plotH);
  const grid = (k1 === k0 ? [k0] : [k0, (k0 + k1) / 2, k1])
    .map(
      (k) =>
        `<line class="grid" x1="${axis}" x2="${W}" y1="${py(k).toFixed(1)}" y2="${py(k).toFixed(1)}"/><text x="${axis - 6}" y="${py(k).toFixed(1)}" dy="3" text-anchor="end">${esc(f.km(Math.round(k)))}</text>`,
    )
    .join('');
  const y0 = new Date(t0).getUTCFullYear();
  const y1 = new Date(t1).getUTCFullYear();
  const step = Math.max(1, Math.ceil((y1 - y0 + 1) / 8));
  let years = '';
  if (y1 - y0 < 3) {
    // A short history: its first and last days (a lone year says nothing about when).
    years = `<text x="${axis}" y="${H - 4}" text-anchor="start">${esc(f.date(r[0]?.date ?? ''))}</text>`;
    if (t1 > t0)
      years += `<text x="${axis + plotW}" y="${H - 4}" text-anchor="end">${esc(f.date(r.at(-1)?.date ?? ''))}</text>`;
  } else
    for (let y = y0; y <= y1; y += step)
      years += `<text x="${px(Math.max(t0, Date.UTC(y, 0, 1))).toFixed(1)}" y="${H - 4}" text-anchor="middle">${y}</text>`;
  const path = r
    .map((x, i) => `${i === 0 ? 'M' : 'L'}${px(ts[i] as number).toFixed(1)},${py(x.km).toFixed(1)}`)
    .join('');
  const dots = r
    .map((x, i) =>
      x.rollback
        ? `<circle class="rb" cx="${px(ts[i] as number).toFixed(1)}" cy="${py(x.km).toFixed(1)}" r="5"><title>${esc(`${f.date(x.date)}: ${f.km(x.km)}`)}</title></circle>`
        : '',
    )
    .join('');
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(reportTexts(m.lang).odometerSection)}">${grid}${years}<path class="line" d="${path}"/>${dots}</svg>`;
}
