import type { CurrencyCode, FuelType, Listing } from '@evdra/domain';
import type { QueryClient } from '@tanstack/react-query';
import { MessagesSquare, Plus } from 'lucide-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageCard } from '../../../components/Card';
import { EMPTY_FILTER, useFilterPanel, type VehicleFilter } from '../../../components/FilterPanel';
import { fuelFilter } from '../../../lib/fuels';
import { useStoredUser } from '../../../lib/session';
import { useMoneyAndUnits } from '../../../lib/units';
import { listingsQuery, useDeleteListing, useInterest, useListings } from '../api';
import { ListingCard } from '../components/ListingCard';
import { MarketOrder, type MarketOrderValue } from '../components/MarketOrder';
import '../marketplace.css';
import { LoadMore } from '../../../components/LoadMore';
import { FIRST_CARDS, useProgressiveLength } from '../../../lib/progressive-list';

// The dialogs (and the form schemas they carry) load when first opened, not with the listings.
const ConversationsOverlay = lazy(() =>
  import('../components/ConversationsOverlay').then((m) => ({ default: m.ConversationsOverlay })),
);
const ListingFormModal = lazy(() =>
  import('../components/ListingFormModal').then((m) => ({ default: m.ListingFormModal })),
);
const PhotoCarousel = lazy(() =>
  import('../components/PhotoCarousel').then((m) => ({ default: m.PhotoCarousel })),
);

const NEWEST: MarketOrderValue = { sort: 'newest' };

/**
 * What the server filters and sorts by, from the panel's fields as typed and the order bar (the price
 * band in the reader's currency); the default order and no band send nothing.
 */
function listingFilters(
  filter: VehicleFilter,
  order: MarketOrderValue,
  currency: CurrencyCode,
  name?: (fuel: FuelType) => string[],
) {
  const band = order.priceMin !== undefined || order.priceMax !== undefined;
  return {
    make: filter.make.trim(),
    model: filter.model.trim(),
    year: filter.year.trim(),
    fuelType: fuelFilter(filter.fuelType, name),
    maxOdometer: filter.maxOdometer.trim() === '' ? undefined : Number(filter.maxOdometer),
    sort: order.sort === 'newest' ? undefined : order.sort,
    priceMin: order.priceMin,
    priceMax: order.priceMax,
    currency: band ? currency : undefined,
  };
}

/** The first page of the unfiltered listings, fetched as soon as this chunk arrives (app/routes.tsx). */
export function prefetch(client: QueryClient): Promise<void> {
  return client.prefetchInfiniteQuery(listingsQuery(listingFilters(EMPTY_FILTER, NEWEST, 'EUR')));
}

type Editing = { mode: 'create' } | { mode: 'edit'; listing: Listing } | null;

export default function MarketplacePage() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const { filter, ...filtering } = useFilterPanel('market');
  const [order, setOrder] = useState<MarketOrderValue>(NEWEST);
  const { currency } = useMoneyAndUnits();
  const [editing, setEditing] = useState<Editing>(null);
  const [photos, setPhotos] = useState<Listing | null>(null);
  const [chatOpen, setChatOpen] = useState<{ id: number | null } | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const list = useListings(
    listingFilters(filter, order, currency, (f) => [t(`fuelTypes.${f}`), t(`fuelNames.${f}`)]),
  );
  const remove = useDeleteListing();
  const interest = useInterest();
  const listings = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  const shownCards = useProgressiveLength(listings.length, FIRST_CARDS);

  const onDelete = async (l: Listing) => {
    if (!window.confirm(t('market.confirmDeleteListing'))) return;
    try {
      await remove.mutateAsync(l.id);
    } catch {
      // only logged (spec §8)
    }
  };

  const onInterested = async (l: Listing) => {
    try {
      const res = await interest.mutateAsync(l.id);
      setSent(res.message);
      setChatOpen({ id: res.interestId ?? null });
    } catch {
      // only logged (spec §8)
    }
  };

  return (
    <PageCard
      title={t('market.title')}
      actions={
        <>
          {filtering.button}
          <button type="button" className="btn btn--secondary" onClick={() => setChatOpen({ id: null })}>
            <MessagesSquare size={18} aria-hidden="true" />
            {t('market.showConversations')}
          </button>
          <button type="button" className="btn btn--primary" onClick={() => setEditing({ mode: 'create' })}>
            <Plus size={18} aria-hidden="true" />
            {t('market.listVehicle')}
          </button>
        </>
      }
    >
      {list.isFetching ? (
        <div className="loading-bar" role="progressbar" aria-label={t('common.loading')} />
      ) : null}
      {sent ? (
        <p className="alert alert--success" role="status">
          {t('market.interestSent', { defaultValue: sent })}
        </p>
      ) : null}
      <MarketOrder value={order} currency={currency} onChange={setOrder} />
      {filtering.active ? (
        <p className="muted filter-summary">
          {t(list.hasNextPage ? 'market.filterSummaryMore' : 'market.filterSummary', {
            count: listings.length,
          })}{' '}
          <button type="button" className="link-button" onClick={filtering.clear}>
            {t('market.clear')}
          </button>
        </p>
      ) : null}
      {list.isSuccess && listings.length === 0 ? (
        <div className="empty-state">
          <p className="muted">{t('market.empty')}</p>
          {!filtering.active ? <p className="muted">{t('market.emptyHint')}</p> : null}
        </div>
      ) : null}

      <div className="vehicle-grid">
        {listings.slice(0, shownCards).map((l) => (
          <ListingCard
            key={l.id}
            listing={l}
            canManage={user?.role === 'ADMIN' || user?.id === l.sellerId}
            onEdit={() => setEditing({ mode: 'edit', listing: l })}
            onDelete={() => void onDelete(l)}
            onInterested={() => void onInterested(l)}
            onOpenPhotos={() => setPhotos(l)}
            interestBusy={interest.isPending}
          />
        ))}
      </div>
      <LoadMore list={list} />

      {filtering.panel}
      <Suspense fallback={null}>
        {editing ? (
          <ListingFormModal
            listing={editing.mode === 'edit' ? editing.listing : null}
            onClose={() => setEditing(null)}
            onSaved={() => setEditing(null)}
          />
        ) : null}
        {photos ? (
          <PhotoCarousel
            title={`${photos.vehicleMake} ${photos.vehicleModel}`}
            photos={photos.photoUrls}
            onClose={() => setPhotos(null)}
          />
        ) : null}
        {chatOpen ? <ConversationsOverlay initialId={chatOpen.id} onClose={() => setChatOpen(null)} /> : null}
      </Suspense>
    </PageCard>
  );
}
