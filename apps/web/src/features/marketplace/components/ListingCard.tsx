import { convertMoney, type FxRate, hasEngineSize, type Listing, type PriceFactor } from '@evdra/domain';
import { useQuery } from '@tanstack/react-query';
import { Car, FileText, Heart, Images } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EditDeleteButtons } from '../../../components/EditDeleteButtons';
import { api } from '../../../lib/api';
import { formatMoneyWhole, useFormat } from '../../../lib/format';
import { fuelsLabel } from '../../../lib/fuels';
import { currencyOf } from '../../../lib/units';
import { brandEmoji } from '../brand';

interface ListingCardProps {
  listing: Listing;
  /** Seller or admin: 'You listed this vehicle.' with Edit and Delete. */
  canManage: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onInterested: () => void;
  onOpenPhotos: () => void;
  interestBusy?: boolean;
}

const LEVEL_CLASS = ['na', 'very-low', 'low', 'fair', 'high', 'very-high'];

/** Decimals a factor's input needs: litres and brand factors have one (1.6 L, × 1.2), km and years none. */
const factorDecimals = (f: PriceFactor) =>
  f.key === 'brand' || f.key === 'engine' || !Number.isInteger(f.input) ? 1 : 0;

/** Spec §9's figures a factor's text names: the base 15,000 less 1,000 a point, and 200,000 km. */
const RATING_BASE = 15_000;
const RATING_STEP = 1_000;
const RATING_KM = 200_000;

/** One listing: photo (opens the carousel), facts, price, rating bar with its why, and the history line. */
export function ListingCard({
  listing: l,
  canManage,
  onEdit,
  onDelete,
  onInterested,
  onOpenPhotos,
  interestBusy,
}: ListingCardProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [why, setWhy] = useState(false);
  const whyId = useId();
  const name = `${l.vehicleMake} ${l.vehicleModel}`;
  const r = l.priceRating;
  const h = l.history;
  const cover = l.photoUrls[0];
  // The price as listed, in the listing's currency (a Romanian seller's car in euros).
  const currency = currencyOf(l, fmt.currency);
  // The rating's figures are in its own currency (euros: it compares every listing in one).
  const ratingCurrency = currencyOf(r, currency);
  // Beside a price in another currency, about how much it is in the reader's (today's rate).
  const fx = useQuery({
    queryKey: ['fx', currency, fmt.currency],
    queryFn: () => api<FxRate>('/api/fx/rate', { query: { from: currency, to: fmt.currency } }),
    enabled: currency !== fmt.currency,
    staleTime: 6 * 60 * 60 * 1000,
    retry: false,
  });

  // A factor's text names the rating's currency and the reader's distance unit (issue 50).
  const factorParams = (f: PriceFactor) =>
    f.key === 'km'
      ? { input: fmt.distance(f.input), limit: fmt.distance(RATING_KM) }
      : {
          input: fmt.number(f.input, factorDecimals(f)),
          base: formatMoneyWhole(RATING_BASE, fmt.lng, ratingCurrency),
          step: formatMoneyWhole(RATING_STEP, fmt.lng, ratingCurrency),
        };

  const historyParts: string[] = [];
  historyParts.push(t('market.history.services', { count: h.services }));
  if (h.lastService)
    historyParts.push(
      t('market.history.lastService', {
        date: fmt.date(h.lastService.date),
        km: fmt.distance(h.lastService.km),
      }),
    );
  if (h.recordsSince) historyParts.push(t('market.history.since', { date: fmt.date(h.recordsSince) }));
  historyParts.push(t('market.history.fuel', { count: h.fuelEntries }));
  if (h.consumptionPer100km !== null)
    historyParts.push(
      t('market.history.consumption', {
        value: fmt.consumption(h.consumptionPer100km, l.fuelType === 'ELECTRIC'),
      }),
    );

  return (
    <article className="vehicle-card listing-card" aria-label={name}>
      <div className="vehicle-card__media">
        {cover ? (
          <button
            type="button"
            className="listing-card__photo"
            onClick={onOpenPhotos}
            aria-label={t('market.openPhotos', { name, count: l.photoUrls.length })}
          >
            <img src={cover} alt="" loading="lazy" />
          </button>
        ) : null}
        {/* Beside the button, not in it: its name says the count, and a name must hold a button's visible text. */}
        {cover && l.photoUrls.length > 1 ? (
          <span className="listing-card__count" aria-hidden="true">
            <Images size={14} /> {l.photoUrls.length}
          </span>
        ) : null}
        {cover ? null : (
          <div className="vehicle-card__nophoto" aria-hidden="true">
            <Car size={48} />
          </div>
        )}
      </div>
      <div className="vehicle-card__body">
        <div className="listing-card__head">
          <h2 className="vehicle-card__title">
            <span aria-hidden="true">{brandEmoji(l.vehicleMake)}</span> {name}{' '}
            <span className="muted">{l.vehicleYear}</span>
          </h2>
          <p className="listing-card__price">
            {fmt.money(l.price, currency)}
            {fx.data && currency !== fmt.currency ? (
              <span className="listing-card__converted muted">
                {t('units.inOwnCurrency', { amount: fmt.money(convertMoney(l.price, fx.data.rate)) })}
              </span>
            ) : null}
          </p>
        </div>
        <dl className="facts">
          {hasEngineSize(l) ? (
            <div>
              <dt>{t('market.engineSize')}</dt>
              <dd>{t('vehicles.litres', { value: fmt.number(l.engineSize, 1) })}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t('market.odometer')}</dt>
            <dd>{fmt.distance(l.odometer)}</dd>
          </div>
          <div>
            <dt>{t('market.fuelType')}</dt>
            <dd>{fuelsLabel(l, (f) => t(`fuelTypes.${f}`))}</dd>
          </div>
          <div>
            <dt>{t('market.aiScore')}</dt>
            <dd>
              {l.vehicleAiScore === null
                ? t('market.na')
                : t('market.scoreOf10', { score: l.vehicleAiScore })}
            </dd>
          </div>
          <div>
            <dt>{t('market.seller')}</dt>
            <dd>{l.listedByUsername}</dd>
          </div>
        </dl>
        {l.description ? <p className="listing-card__desc">{l.description}</p> : null}

        <div className="rating">
          <div className="rating__row">
            <span>
              {r.level === 0 ? (
                t('market.noRating')
              ) : (
                <>
                  {t('market.scoreOf10', { score: l.vehicleAiScore })} ·{' '}
                  <strong>{t(`market.rating.${LEVEL_CLASS[r.level]}`)}</strong>
                </>
              )}
            </span>
            {r.level > 0 ? (
              <button
                type="button"
                className="link-button"
                aria-expanded={why}
                aria-controls={whyId}
                onClick={() => setWhy((w) => !w)}
              >
                {why ? t('market.hideWhy') : t('market.showWhy')}
              </button>
            ) : null}
          </div>
          <div className={`rating__bar rating__bar--${LEVEL_CLASS[r.level]}`} aria-hidden="true">
            <span style={{ width: `${r.level * 20}%` }} />
          </div>
          {why && r.estimate !== null && r.difference !== null ? (
            <div id={whyId} className="rating__why">
              <p>
                {t('market.estimate', { value: fmt.money(r.estimate, ratingCurrency) })}{' '}
                {t(r.difference >= 0 ? 'market.above' : 'market.below', {
                  value: fmt.money(Math.abs(r.difference), ratingCurrency),
                })}
              </p>
              <ul>
                {r.factors.map((f) => (
                  <li key={f.key}>
                    <span>{t(`market.factors.${f.key}`, factorParams(f))}</span>
                    <span>{fmt.money(f.amount, ratingCurrency)}</span>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>

        <p className="listing-card__history muted">{historyParts.join(' · ')}</p>
        {l.reportUrl ? (
          <p className="listing-card__report">
            <a href={l.reportUrl} target="_blank" rel="noopener noreferrer">
              <FileText size={14} aria-hidden="true" /> {t('market.fullReport')}
            </a>
          </p>
        ) : null}

        {canManage ? (
          <div className="listing-card__owner">
            <p className="muted">{t('market.youListed')}</p>
            <div className="listing-card__actions">
              <EditDeleteButtons
                editLabel={t('market.editLabel', { name })}
                deleteLabel={t('market.deleteLabel', { name })}
                onEdit={onEdit}
                onDelete={onDelete}
              />
            </div>
          </div>
        ) : (
          <button type="button" className="btn btn--primary" onClick={onInterested} disabled={interestBusy}>
            <Heart size={18} aria-hidden="true" />
            {t('market.interested')}
          </button>
        )}
      </div>
    </article>
  );
}
