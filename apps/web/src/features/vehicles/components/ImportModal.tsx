import {
  CURRENCIES,
  type CurrencyCode,
  GENERIC_FIELDS,
  type GenericField,
  IMPORT_MAX_BYTES,
  type ImportMapping,
  type ImportPreview,
  type ImportResult,
  type ImportUnits,
  type Vehicle,
} from '@evdra/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { type DragEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/Card';
import { Modal } from '../../../components/Modal';
import { errorText } from '../../../lib/api';
import { useFormat } from '../../../lib/format';
import { type ImportProgress, postImport } from '../importUpload';
import '../import.css';

type Step =
  | { name: 'choose' }
  | { name: 'preview'; preview: ImportPreview }
  | { name: 'done'; result: ImportResult };

/** Sample rows have no id and never reorder: their position is their key. */
const keyed = <T,>(rows: T[], prefix: string) => rows.map((row, n) => ({ row, key: `${prefix}${n}` }));

const total = (c: ImportPreview['counts']) => c.fuel + c.expenses + c.revisions + c.insurance;

/**
 * Import another app's history into one vehicle: drop a file → preview (the units it is read in,
 * counts, warnings and errors per row, a sample, the column mapping of a generic CSV) → confirm
 * with upload progress. The units picker starts at the server's guess and names why; changing it
 * previews again, and confirm sends the units of the preview on screen, so what is stored is what
 * the user saw. The currency likewise (issue 50): the one the file names is shown; when some amounts
 * name none, a picker (pre-set by the server) asks, and confirm sends the currency on screen.
 */
export function ImportModal({ vehicle, onClose }: { vehicle: Vehicle; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [step, setStep] = useState<Step>({ name: 'choose' });
  const [mapping, setMapping] = useState<ImportMapping | undefined>(undefined);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [key] = useState(() => crypto.randomUUID());

  const run = async <S extends 'preview' | 'confirm'>(s: S, f: File, m: ImportMapping | undefined) => {
    setError(null);
    try {
      return await postImport(
        s,
        vehicle.id,
        f,
        m,
        setProgress,
        s === 'confirm' ? { 'Idempotency-Key': key } : {},
      );
    } catch (err) {
      setError(errorText(err));
      return undefined;
    } finally {
      setProgress(null);
    }
  };

  const choose = async (f: File | undefined) => {
    if (!f) return;
    if (f.size > IMPORT_MAX_BYTES) {
      setError(t('importer.tooBig'));
      return;
    }
    setFile(f);
    setMapping(undefined);
    const preview = await run('preview', f, undefined);
    if (preview) setStep({ name: 'preview', preview });
  };

  const remap = async (next: ImportMapping) => {
    if (!file) return;
    setMapping(next);
    const preview = await run('preview', file, next);
    if (preview) setStep({ name: 'preview', preview });
  };

  /** A units choice: the preview follows it at once (the figures are the ones confirm will store). */
  const changeUnits = async (units: ImportUnits, shown: ImportPreview) => {
    if (!file) return;
    const next = { ...(mapping ?? {}), units };
    setMapping(next);
    const preview = await run('preview', file, next);
    if (preview) setStep({ name: 'preview', preview });
    else setMapping({ ...next, units: shown.units });
  };

  /** A currency choice for the amounts the file leaves unnamed: previewed again at once, as units are. */
  const changeCurrency = async (currency: CurrencyCode, shown: ImportPreview) => {
    if (!file) return;
    const next = { ...(mapping ?? {}), currency };
    setMapping(next);
    const preview = await run('preview', file, next);
    if (preview) setStep({ name: 'preview', preview });
    else setMapping({ ...next, currency: shown.currency });
  };

  const confirm = async (shown: ImportPreview) => {
    if (!file) return;
    // The units of the preview on screen, even when they were the guess: the server re-reads with them.
    const units = shown.unitsGuess.reason === 'fixed' ? undefined : shown.units;
    // The currency on screen for the amounts the file leaves unnamed (none: nothing to send).
    const currency = shown.currencyGuess.unstated > 0 ? shown.currency : undefined;
    const result = await run('confirm', file, {
      ...(mapping ?? {}),
      ...(units ? { units } : {}),
      ...(currency ? { currency } : {}),
    });
    if (!result) return;
    setStep({ name: 'done', result });
    await queryClient.invalidateQueries();
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    void choose(e.dataTransfer.files[0]);
  };

  const busy = progress !== null;
  return (
    <Modal title={t('importer.title', { name: `${vehicle.make} ${vehicle.model}` })} onClose={onClose}>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {progress ? (
        <div className="import__progress">
          <progress
            max={1}
            value={progress.phase === 'uploading' ? progress.fraction : undefined}
            aria-label={t('importer.progress')}
          />
          <p className="muted">
            {progress.phase === 'uploading'
              ? t('importer.uploading', { percent: Math.round(progress.fraction * 100) })
              : t('importer.working')}
          </p>
        </div>
      ) : null}

      {step.name === 'choose' ? (
        <section
          className={`import__drop${dragging ? ' import__drop--over' : ''}`}
          aria-label={t('importer.drop')}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <Upload size={32} aria-hidden="true" />
          <p>{t('importer.drop')}</p>
          <label className="btn btn--primary" htmlFor={inputId}>
            {t('importer.choose')}
          </label>
          <input
            ref={input}
            id={inputId}
            className="visually-hidden"
            type="file"
            accept=".csv,.txt,.zip,text/csv,application/zip"
            disabled={busy}
            onChange={(e) => void choose(e.target.files?.[0])}
          />
          <p className="field__hint">{t('importer.formats')}</p>
        </section>
      ) : null}

      {step.name === 'preview' ? (
        <PreviewView
          preview={step.preview}
          busy={busy}
          onRemap={(m) => void remap(m)}
          onUnits={(u) => void changeUnits(u, step.preview)}
          onCurrency={(c) => void changeCurrency(c, step.preview)}
          mapping={mapping}
        />
      ) : null}

      {step.name === 'done' ? (
        <Alert tone="success">
          {total(step.result.counts) > 0
            ? t('importer.done', { count: total(step.result.counts), duplicates: step.result.duplicates })
            : t('importer.nothing', { duplicates: step.result.duplicates })}
        </Alert>
      ) : null}
      {step.name === 'done' && step.result.errors.length > 0 ? (
        // What confirm left out (an amount whose day has no exchange rate…), row by row.
        <details className="import__issues" open>
          <summary>{t('importer.leftOut', { count: step.result.errors.length })}</summary>
          <ul>
            {step.result.errors.slice(0, 200).map((e) => (
              <li key={`${e.row}-${e.code}-${e.message}`}>
                {t('importer.row', { row: e.row })}: {e.message}
              </li>
            ))}
          </ul>
        </details>
      ) : null}

      <div className="form__actions">
        {step.name === 'preview' ? (
          <>
            <button
              type="button"
              className="btn btn--secondary"
              disabled={busy}
              onClick={() => setStep({ name: 'choose' })}
            >
              {t('importer.another')}
            </button>
            <button
              type="button"
              className="btn btn--primary"
              disabled={busy || total(step.preview.counts) === 0}
              aria-busy={busy}
              onClick={() => void confirm(step.preview)}
            >
              {busy ? t('importer.importing') : t('importer.confirm', { count: total(step.preview.counts) })}
            </button>
          </>
        ) : (
          <button type="button" className="btn btn--secondary" onClick={onClose} data-autofocus>
            {t('common.close')}
          </button>
        )}
      </div>
    </Modal>
  );
}

function PreviewView({
  preview: p,
  busy,
  mapping,
  onRemap,
  onUnits,
  onCurrency,
}: {
  preview: ImportPreview;
  busy: boolean;
  mapping: ImportMapping | undefined;
  onRemap: (m: ImportMapping) => void;
  onUnits: (u: ImportUnits) => void;
  onCurrency: (c: CurrencyCode) => void;
}) {
  const { t } = useTranslation();
  const { money } = useFormat();
  /** A sample's amount in its own currency (the file's, else the one picked). */
  const amount = (value: number, currency: CurrencyCode | undefined) => money(value, currency ?? p.currency);
  const [columns, setColumns] = useState<Partial<Record<GenericField, string | null>>>(
    p.mapping?.columns ?? {},
  );
  const ids = useId();
  const issues = [
    ...p.errors.map((e) => ({ row: e.row, field: '', text: e.message, tone: 'error' as const })),
    // The units picker says what the $ made of the units; the same words in the table would be noise.
    ...p.warnings
      .filter((w) => w.code !== 'DOLLAR_UNITS')
      .map((w) => ({ row: w.row, field: w.field, text: w.message, tone: 'warning' as const })),
  ].sort((a, b) => a.row - b.row);
  return (
    <div className="import__preview">
      <p>
        <strong>{t('importer.format', { format: t(`importer.formatNames.${p.format}`) })}</strong>
      </p>
      {p.unitsGuess.reason === 'fixed' ? null : (
        <UnitsPicker preview={p} units={{ ...p.units, ...mapping?.units }} busy={busy} onUnits={onUnits} />
      )}
      <CurrencyPicker
        preview={p}
        currency={mapping?.currency ?? p.currency}
        busy={busy}
        onCurrency={onCurrency}
      />
      <table className="import__table import__counts">
        <caption className="visually-hidden">{t('importer.countsTitle')}</caption>
        <tbody>
          {(['fuel', 'expenses', 'revisions', 'insurance'] as const).map((k) => (
            <tr key={k}>
              <th scope="row">{t(`importer.kinds.${k}`)}</th>
              <td>{p.counts[k]}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">{t('importer.duplicates')}</th>
            <td>{p.duplicates}</td>
          </tr>
          <tr>
            <th scope="row">{t('importer.skipped')}</th>
            <td>{p.skipped}</td>
          </tr>
        </tbody>
      </table>

      {issues.length > 0 ? (
        <details className="import__issues" open={issues.length <= 10}>
          <summary>{t('importer.issues', { count: issues.length })}</summary>
          {/* One line per row of the file: which row, which field, what happens to it. */}
          <div className="table-wrap">
            <table className="import__table import__issue-table">
              <caption className="visually-hidden">{t('importer.issues', { count: issues.length })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('importer.rowColumn')}</th>
                  <th scope="col">{t('importer.fieldColumn')}</th>
                  <th scope="col">{t('importer.messageColumn')}</th>
                </tr>
              </thead>
              <tbody>
                {issues.slice(0, 200).map((i) => (
                  <tr key={`${i.tone}-${i.row}-${i.field}-${i.text}`} className={`import__issue--${i.tone}`}>
                    <th scope="row">{i.row}</th>
                    <td>{i.field ? t(`importer.fields.${i.field}`, { defaultValue: i.field }) : ''}</td>
                    <td>
                      <span className="visually-hidden">
                        {t(i.tone === 'error' ? 'importer.error' : 'importer.warning')}:{' '}
                      </span>
                      {i.text}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ) : null}

      {p.sample.fuel.length > 0 ? (
        <div className="table-wrap">
          <table className="import__table">
            <caption>{t('importer.sampleFuel')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('importer.fields.date')}</th>
                <th scope="col">{t('importer.odometerKm')}</th>
                <th scope="col">{t('importer.fields.liters')}</th>
                <th scope="col">{t('importer.fields.fuelPrice')}</th>
                <th scope="col">{t('importer.fields.fullTank')}</th>
              </tr>
            </thead>
            <tbody>
              {keyed(p.sample.fuel, 'f').map(({ row: f, key }) => (
                <tr key={key}>
                  <td>{f.date}</td>
                  <td>{f.odometer ?? '—'}</td>
                  <td>{f.liters}</td>
                  <td>{amount(f.fuelPrice, f.currency)}</td>
                  <td>{f.fullTank ? '✓' : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {p.sample.expenses.length + p.sample.revisions.length + p.sample.insurance.length > 0 ? (
        <div className="table-wrap">
          <table className="import__table">
            <caption>{t('importer.sampleOther')}</caption>
            <tbody>
              {keyed(p.sample.revisions, 'r').map(({ row: r, key }) => (
                <tr key={key}>
                  <td>{r.date}</td>
                  <td>{t('importer.kinds.revisions')}</td>
                  <td>{amount(r.price, r.currency)}</td>
                  <td>{r.description}</td>
                </tr>
              ))}
              {keyed(p.sample.expenses, 'e').map(({ row: e, key }) => (
                <tr key={key}>
                  <td>{e.date}</td>
                  <td>{t(`expenseTypes.${e.expenseType}`, { defaultValue: e.expenseType })}</td>
                  <td>{amount(e.amount, e.currency)}</td>
                  <td>{e.description}</td>
                </tr>
              ))}
              {keyed(p.sample.insurance, 'i').map(({ row: s, key }) => (
                <tr key={key}>
                  <td>{s.startDate}</td>
                  <td>{t('importer.kinds.insurance')}</td>
                  <td>{amount(s.price, s.currency)}</td>
                  <td>{s.provider}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {p.mapping ? (
        <fieldset className="import__mapping" disabled={busy}>
          <legend>{t('importer.mappingTitle')}</legend>
          {GENERIC_FIELDS.map((f) => (
            // Label by id, not by wrapping: a wrapping label's name would also read every option.
            <div key={f} className="field">
              <label className="field__label" htmlFor={`${ids}-${f}`}>
                {t(`importer.fields.${f}`)}
              </label>
              <select
                id={`${ids}-${f}`}
                className="input"
                value={columns[f] ?? ''}
                onChange={(e) => setColumns({ ...columns, [f]: e.target.value || null })}
              >
                <option value="">{t('importer.none')}</option>
                {p.mapping?.headers.map((h) => (
                  <option key={h} value={h}>
                    {h}
                  </option>
                ))}
              </select>
            </div>
          ))}
        </fieldset>
      ) : null}
      {p.mapping ? (
        <button
          type="button"
          className="btn btn--secondary btn--small"
          disabled={busy}
          onClick={() => onRemap({ ...(mapping ?? {}), columns })}
        >
          {t('importer.apply')}
        </button>
      ) : null}
    </div>
  );
}

/** Full names of the units, for the sentence that names the guess. */
const unitWords = (t: (k: string) => string, u: ImportUnits) => ({
  distance: t(u.distance === 'km' ? 'importer.kilometres' : 'importer.miles'),
  volume: t({ l: 'importer.litres', usgal: 'importer.usGallons', impgal: 'importer.impGallons' }[u.volume]),
});

/**
 * The units the file is read in: pre-set by the server's guess, which is named (why it was made),
 * so a Romanian whose LubeLogger shows `$` sees "miles" before anything is stored.
 */
function UnitsPicker({
  preview: p,
  units,
  busy,
  onUnits,
}: {
  preview: ImportPreview;
  units: ImportUnits;
  busy: boolean;
  onUnits: (u: ImportUnits) => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const guess = t(`importer.unitsGuess.${p.unitsGuess.reason}`, {
    ...unitWords(t, p.unitsGuess),
    format: t(`importer.formatNames.${p.format}`),
  });
  return (
    <fieldset className="import__units" disabled={busy} aria-describedby={`${ids}-guess`}>
      <legend>{t('importer.unitsTitle')}</legend>
      <p id={`${ids}-guess`} className="import__units-guess">
        {guess}
      </p>
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-distance`}>
          {t('importer.distance')}
        </label>
        <select
          id={`${ids}-distance`}
          className="input"
          value={units.distance}
          onChange={(e) => onUnits({ ...units, distance: e.target.value as ImportUnits['distance'] })}
        >
          <option value="km">{t('importer.kilometres')}</option>
          <option value="mi">{t('importer.miles')}</option>
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-volume`}>
          {t('importer.volume')}
        </label>
        <select
          id={`${ids}-volume`}
          className="input"
          value={units.volume}
          onChange={(e) => onUnits({ ...units, volume: e.target.value as ImportUnits['volume'] })}
        >
          <option value="l">{t('importer.litres')}</option>
          <option value="usgal">{t('importer.usGallons')}</option>
          <option value="impgal">{t('importer.impGallons')}</option>
        </select>
      </div>
    </fieldset>
  );
}

/**
 * The currency of the file's amounts (issue 50): the one the file names, shown; when some amounts name
 * none, a picker pre-set by the server (the file's one currency, else the user's) and why.
 */
function CurrencyPicker({
  preview: p,
  currency,
  busy,
  onCurrency,
}: {
  preview: ImportPreview;
  currency: CurrencyCode;
  busy: boolean;
  onCurrency: (c: CurrencyCode) => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const g = p.currencyGuess;
  const found = g.found.map((c) => t(`currencies.${c}`)).join(', ');
  if (g.unstated === 0)
    return g.found.length === 0 ? null : (
      <p className="import__currency-found">
        {g.found.length === 1
          ? t('importer.currencyFound', { currency: found })
          : t('importer.currencyFoundRows', { found })}
      </p>
    );
  const reason = g.reason === 'rows' || g.reason === 'dollar' ? g.reason : 'none';
  return (
    <fieldset className="import__units" disabled={busy} aria-describedby={`${ids}-guess`}>
      <legend>{t('importer.currencyTitle')}</legend>
      <p id={`${ids}-guess`} className="import__units-guess">
        {t(`importer.currencyGuess.${reason}`, {
          currency: t(`currencies.${p.currency}`),
          found,
          count: g.unstated,
        })}
      </p>
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-currency`}>
          {t('importer.currencyLabel')}
        </label>
        <select
          id={`${ids}-currency`}
          className="input"
          value={currency}
          onChange={(e) => onCurrency(e.target.value as CurrencyCode)}
        >
          {CURRENCIES.map((c) => (
            <option key={c} value={c}>
              {t(`currencies.${c}`)}
            </option>
          ))}
        </select>
      </div>
    </fieldset>
  );
}
