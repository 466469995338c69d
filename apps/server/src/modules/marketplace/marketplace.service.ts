import { randomBytes } from 'node:crypto';
import {
  CHAT_LIST_CAP,
  type ChatQuery,
  CONVERSATIONS_CAP,
  type Conversation,
  type ConversationListQuery,
  type CurrencyCode,
  INTEREST_SENT,
  LISTING_PHOTOS_MAX,
  type Listing,
  type ListingCreateBody,
  type ListingEditBody,
  type ListingFilters,
  MARKET_LIST_CAP,
  priceRating,
  type RateSourceCode,
  SOLD_ELSEWHERE_MESSAGE,
  TRANSFER_MESSAGE,
} from '@evdra/domain';
import type { Executor } from '../../db/client.js';
import { type FileStore, openWhenAllowed, type StoredFile } from '../../files/file-store.js';
import { normalizePhoto } from '../../files/images.js';
import { AppError, fieldError, forbidden, notFound, UniqueViolation } from '../../lib/errors.js';
import { VersionedCache } from '../../lib/versioned-cache.js';
import type { Principal } from '../auth/auth.service.js';
import { fuelsMatching, yearsMatching } from './market-filters.js';
import { interestText, messageText, soldText, transferText } from './market-texts.js';
import type {
  CardRow,
  InterestRow,
  ListingMoney,
  MarketPageQuery,
  MarketplaceRepo,
} from './marketplace.repo.js';

/** A listing's money fields as the seller may send them. */
export type ListingMoneySent = {
  currency?: CurrencyCode;
  exchangeRate?: number;
  rateDate?: string;
  rateSource?: RateSourceCode;
};

/** How a listing's price gets its currency and rate (see MarketplaceService's priceMoney). */
export type ListingPricing = (
  sent: ListingMoneySent,
  ctx: {
    ownerCurrency: CurrencyCode;
    date: string;
    amount: number;
    current?: ListingMoney & { date: string };
  },
) => Promise<ListingMoney>;

export const listingPhotoUrl = (fileId: string) => `/api/marketplace/photos/${fileId}`;
const fileIdOfUrl = (url: string) => url.split('/').pop() ?? '';
/** Card JSON kept, in characters (about as much again for the rows they were made from). */
const CARD_CACHE_CHARS = 16 * 1024 * 1024;
/** Kept pages of the market, in bytes (a page of 48 cards is about 37 KB). */
const PAGE_CACHE_BYTES = 32 * 1024 * 1024;
/** Listings' rows kept for GET /api/marketplace/listings/{id} (each about 1 KB). */
const LISTING_ROWS_KEPT = 20_000;

/** A page of the market: its JSON bytes (compressed once per coding while kept) and the next page's cursor. */
type MarketPage = { json: Buffer; next: string | null };

/**
 * All of a card row's values in one string: equal strings, equal rows. Each value opens with NUL,
 * which PostgreSQL text cannot hold, and a null is that NUL alone, so no two rows share a string.
 */
function rowValues(r: CardRow): string {
  let values = '';
  for (const key in r) {
    const v = r[key as keyof CardRow];
    values += v === null ? '\0' : `\0=${v}`;
  }
  return values;
}

const iso = (v: string | Date) => (v instanceof Date ? v : new Date(v)).toISOString();

/** A card as the API answers it: the row's facts, the spec §9 rating (domain) and the history. */
export function presentListing(r: CardRow): Listing {
  const price = Number(r.price);
  const engineSize = Number(r.engineSize);
  const aiScore = r.aiScore === null ? null : Number(r.aiScore);
  // The rating compares every listing in euros (spec §9's figures): a price in another currency at
  // the latest known rate (the euro price the database keeps); none known, no rating.
  const priceInEuros = r.priceEur === null ? null : Number(r.priceEur);
  const rating =
    priceInEuros === null
      ? priceRating(price, {
          make: r.make,
          year: r.year,
          engineSize,
          odometer: r.odometer,
          fuelType: r.fuelType,
          aiScore: null,
        })
      : priceRating(priceInEuros, {
          make: r.make,
          year: r.year,
          engineSize,
          odometer: r.odometer,
          fuelType: r.fuelType,
          aiScore,
        });
  return {
    id: r.id,
    vehicleId: r.vehicleId,
    vehicleMake: r.make,
    vehicleModel: r.model,
    vehicleYear: r.year,
    engineSize,
    odometer: r.odometer,
    fuelType: r.fuelType,
    secondaryFuelType: r.secondaryFuelType,
    vehicleAiScore: aiScore,
    price,
    currency: r.currency,
    exchangeRate: r.exchangeRate === null ? null : Number(r.exchangeRate),
    rateDate: r.rateDate,
    rateSource: r.rateSource,
    description: r.description,
    photoUrls: r.photoIds === '' ? [] : r.photoIds.split(',').map(listingPhotoUrl),
    listedByUsername: r.sellerUsername,
    sellerId: r.sellerId,
    createdAt: r.createdAt,
    priceRating: { ...rating, currency: rating.level === 0 ? null : 'EUR' },
    history: {
      services: r.services,
      lastService:
        r.lastServiceDate && r.lastServiceKm !== null
          ? { date: r.lastServiceDate, km: r.lastServiceKm }
          : null,
      recordsSince: r.recordsSince,
      fuelEntries: r.fuelEntries,
      consumptionPer100km: r.consumption === null ? null : Number(r.consumption),
    },
    reportUrl: r.reportToken ? `/r/${r.reportToken}` : null,
  };
}

const inactive = () => new AppError(409, 'CONFLICT', 'This listing is no longer active.');

/**
 * Listings, interest, conversations and the sale. Sellers (and admins) manage listings; only the two
 * parties of a conversation see it (404 for anyone else); only the seller transfers.
 */
/** What a sale needs of the sharing feature (composed by the app). */
export type MarketSharing = {
  /** Ends the vehicle's shares inside the sale's transaction, telling each grantee but `buyerId`. */
  endShares: (tx: Executor, vehicleId: number, buyerId: number) => Promise<void>;
  /** Throws 403 for an editor or viewer of the vehicle (only its owner may sell it). */
  ownerOnly: (p: Principal, vehicleId: number) => Promise<unknown>;
  /**
   * Inside the sale's transaction: the vehicle's documents marked private go (the seller's own
   * papers); the others travel with the car. Answers the files whose bytes to drop after the commit.
   */
  handOverDocuments?: (tx: Executor, vehicleId: number) => Promise<string[]>;
  /** After the sale's commit: drops the bytes of the files handOverDocuments deleted. */
  dropFiles?: (ids: string[]) => Promise<void>;
};

export class MarketplaceService {
  constructor(
    private readonly repo: MarketplaceRepo,
    private readonly store: FileStore,
    /** Called after a sale moved a vehicle to its buyer (the vehicle lists are cached). */
    private readonly vehicleMoved: () => void = () => {},
    private readonly sharing: MarketSharing = {
      endShares: async () => {},
      ownerOnly: async () => {},
    },
    /**
     * Makes the history-report link a new listing carries (the reports module; the database revokes
     * it when the listing is deleted or the car transferred).
     */
    private readonly attachReport: (
      vehicleId: number,
      sellerId: number,
      listingId: number,
    ) => Promise<unknown> = async () => {},
    /**
     * The price's currency and rate to the seller's (issue 50: the records' rule, given by the app):
     * the one sent, else the listing's own, else the seller's; 400 on exchangeRate without a rate.
     */
    private readonly priceMoney: ListingPricing = async (sent, ctx) => ({
      currency: sent.currency ?? ctx.current?.currency ?? ctx.ownerCurrency,
      exchangeRate: 1,
      rateDate: ctx.date,
      rateSource: 'ECB',
      rateCurrency: ctx.ownerCurrency,
    }),
  ) {}

  /** The listing's money for a price the seller sends today. */
  private async money(
    sellerId: number,
    body: ListingMoneySent & { price: number },
    current?: ListingMoney,
  ): Promise<ListingMoney> {
    const ownerCurrency = (await this.repo.currencyOf(sellerId)) ?? 'EUR';
    const date = new Date().toISOString().slice(0, 10);
    return this.priceMoney(body, {
      ownerCurrency,
      date,
      amount: body.price,
      // A listing's rate is of the day it was set: kept while its currency is, the same day.
      current: current && { ...current, date: current.rateDate ?? '' },
    });
  }

  /**
   * A page of GET /api/marketplace/listings as JSON bytes, and the cursor of the next page (null: the
   * last); without `limit`, the first MARKET_LIST_CAP. A page is kept and handed out again while the
   * market's stamp is the same (issue 54: at 50 connections on 2 cores, reading and writing each page
   * again was the market's whole cost); the stamp is read before the page, so a write in between
   * leaves a newer page under the older stamp, never the reverse.
   */
  async listingsJson(filters: ListingFilters): Promise<MarketPage> {
    const q = await this.pageQuery(filters);
    const stamp = await this.repo.pagesStamp();
    return (await this.pages.through(JSON.stringify(q), stamp, () => this.page(q))) as MarketPage;
  }

  private readonly pages = new VersionedCache<MarketPage, string>(PAGE_CACHE_BYTES, (p) => p.json.length);
  private readonly listingRows = new VersionedCache<CardRow, string>(LISTING_ROWS_KEPT, () => 1);

  /**
   * JSON.stringify of the cards is the fastest writer here (the compiled serializer's nullable unions
   * are slower on 10,000 cards), and the cards are built from typed rows, so re-validating them would
   * only cost time. A card is a function of its row alone (presentListing), so each card's JSON is
   * kept with the values of the row it was made from and written again only when a value changed:
   * comparing the values costs less than writing the card.
   */
  private async page(q: MarketPageQuery): Promise<MarketPage> {
    const rows = await this.repo.cards(q);
    const page = rows.slice(0, q.limit);
    let json = '[';
    for (const row of page) {
      if (json.length > 1) json += ',';
      json += this.cardJson(row);
    }
    const last = page.at(-1);
    const next =
      rows.length > q.limit && last
        ? q.sort === 'rating'
          ? `${last.ratingRank}_${last.id}`
          : `${last.id}`
        : null;
    return { json: Buffer.from(`${json}]`), next };
  }

  /** The query's texts as the values the indexes hold (see ListingFilters for what each means). */
  private async pageQuery(f: ListingFilters): Promise<MarketPageQuery> {
    const given = (text: string | undefined) => (text === undefined || text === '' ? undefined : text);
    const fuel = given(f.fuelType);
    const year = given(f.year);
    let perEuro = 1;
    if (f.currency && f.currency !== 'EUR' && (f.priceMin !== undefined || f.priceMax !== undefined)) {
      const rate = await this.repo.perEuro(f.currency);
      if (rate === undefined)
        throw fieldError(
          'VALIDATION_FAILED',
          400,
          'currency',
          'No exchange rate is known for this currency.',
        );
      perEuro = rate;
    }
    const [rank, id] = f.cursor?.includes('_') ? f.cursor.split('_') : [undefined, f.cursor];
    return {
      makeText: given(f.make),
      modelText: given(f.model),
      fuels: fuel === undefined ? undefined : fuelsMatching(fuel),
      years: year === undefined ? undefined : yearsMatching(year),
      maxOdometer: f.maxOdometer,
      minEur: f.priceMin === undefined ? undefined : f.priceMin / perEuro,
      maxEur: f.priceMax === undefined ? undefined : f.priceMax / perEuro,
      sort: f.sort ?? 'newest',
      limit: f.limit ?? MARKET_LIST_CAP,
      after: id === undefined ? undefined : { rank, id: Number(id) },
    };
  }

  /** One listing's card: an active one for any user; one no longer active only for its seller or an admin (404 otherwise). */
  async listing(p: Principal, id: number): Promise<Listing> {
    // Kept as the market's pages are (listingsJson); the rule below runs on every read.
    const stamp = await this.repo.pagesStamp();
    const row = await this.listingRows.through(String(id), stamp, () => this.repo.card(id));
    if (!row || (!row.active && row.sellerId !== p.userId && p.role !== 'ADMIN')) throw notFound('Listing');
    return presentListing(row);
  }

  private readonly cards = new VersionedCache<string, string>(CARD_CACHE_CHARS);

  private cardJson(row: CardRow): string {
    const id = String(row.id);
    const values = rowValues(row);
    let json = this.cards.get(id, values);
    if (json === undefined) {
      json = JSON.stringify(presentListing(row));
      this.cards.set(id, values, json);
    }
    return json;
  }

  /** What every page of the market, and which cars are listed, is true for. */
  marketStamp(): Promise<string> {
    return this.repo.pagesStamp();
  }

  /** The caller's vehicles without an active listing, as the response's JSON text. */
  myVehiclesJson(p: Principal): Promise<string> {
    return this.repo.unlistedVehiclesJson(p.userId);
  }

  async create(p: Principal, body: ListingCreateBody, photos: Buffer[] = []): Promise<Listing> {
    const owner = await this.repo.vehicleOwner(body.vehicleId);
    if (owner !== p.userId) {
      // Someone the car is shared with learns why (403); anyone else gets the 404 as before.
      await this.sharing.ownerOnly(p, body.vehicleId).catch((err: unknown) => {
        if (err instanceof AppError && err.statusCode === 403) throw err;
      });
      throw fieldError('NOT_FOUND', 404, 'vehicleId', 'Vehicle not found.');
    }
    const photoIds = await this.storePhotos(body.vehicleId, photos);
    try {
      const money = await this.money(p.userId, body);
      const id = await this.repo.insertListing({
        vehicleId: body.vehicleId,
        price: body.price,
        description: body.description,
        ...money,
        sellerId: p.userId,
        photoIds,
      });
      await this.attachReport(body.vehicleId, p.userId, id);
      return this.present(id);
    } catch (err) {
      await this.deleteFiles(photoIds);
      if (err instanceof UniqueViolation)
        throw fieldError('CONFLICT', 409, 'vehicleId', 'This vehicle is already listed.');
      throw err;
    }
  }

  async edit(p: Principal, id: number, body: ListingEditBody, newPhotos: Buffer[] = []): Promise<Listing> {
    const current = await this.managed(p, id);
    if (!current.active) throw inactive();
    const remove = new Set(body.removePhotoUrls.map(fileIdOfUrl));
    const kept = current.photoIds.filter((f) => !remove.has(f));
    if (kept.length + newPhotos.length > LISTING_PHOTOS_MAX)
      throw fieldError('VALIDATION_FAILED', 400, 'newPhotos', `At most ${LISTING_PHOTOS_MAX} photos.`);
    const money = await this.money(current.sellerId, body, current);
    const added = await this.storePhotos(current.vehicleId, newPhotos);
    await this.repo.updateListing(id, {
      price: body.price,
      description: body.description,
      ...money,
      photoIds: [...kept, ...added],
    });
    await this.deleteFiles(current.photoIds.filter((f) => remove.has(f)));
    return this.present(id);
  }

  /** Removes the listing with its photos, interests and conversations. */
  async delete(p: Principal, id: number) {
    const current = await this.managed(p, id);
    await this.repo.deleteListing(id);
    await this.deleteFiles(current.photoIds);
  }

  /**
   * Bytes of a listing photo: any logged-in user sees an active listing's pictures; those of a
   * listing no longer active (sold, deactivated) only its seller and admins (404 for anyone else).
   */
  async photo(p: Principal, fileId: string): Promise<{ file: StoredFile; contentType: string }> {
    const opened = await openWhenAllowed(this.store, fileId, this.photoType(p, fileId));
    if (!opened) throw notFound('File');
    return opened;
  }

  /** The type of a listing photo the caller may see (404 otherwise): enough to answer a conditional GET. */
  async photoType(p: Principal, fileId: string): Promise<string> {
    const contentType = await this.repo.listingPhotoType(fileId, p.role === 'ADMIN' ? null : p.userId);
    if (!contentType) throw notFound('File');
    return contentType;
  }

  async interest(p: Principal, listingId: number): Promise<{ message: string; interestId: number }> {
    const l = await this.repo.listing(listingId);
    if (!l?.active) throw notFound('Listing');
    if (l.sellerId === p.userId)
      throw new AppError(409, 'CONFLICT', 'You cannot be interested in your own listing.');
    const { id, created } = await this.repo.upsertInterest(listingId, p.userId, l.sellerId);
    if (created) {
      const [buyer, seller] = await this.repo.people(p.userId, l.sellerId);
      await this.repo.notify({
        userId: l.sellerId,
        vehicleId: l.vehicleId,
        type: 'MARKET_INTEREST',
        ...interestText(seller.language, buyer.username, l),
      });
    }
    return { message: INTEREST_SENT, interestId: id };
  }

  /**
   * The caller's conversations, latest activity first: `limit` of them (without it CONVERSATIONS_CAP)
   * after `cursor`; `next`: the next page's cursor when more follow.
   */
  async conversations(
    p: Principal,
    q: ConversationListQuery = {},
  ): Promise<{ items: Conversation[]; next?: string }> {
    const limit = q.limit ?? CONVERSATIONS_CAP;
    const rows = await this.repo.conversations(p.userId, { fetch: limit + 1, cursor: q.cursor });
    const next = rows.length > limit ? rows[limit - 1]?.cursor : undefined;
    if (rows.length > limit) rows.length = limit;
    const items = rows.map((c): Conversation => {
      const asBuyer = c.buyerId === p.userId;
      return {
        interestId: c.interestId,
        listingId: c.listingId,
        counterparty: (asBuyer ? c.sellerName : c.buyerName) ?? '',
        vehicle: { make: c.make, model: c.model, year: c.year },
        message: c.lastMessage ?? '',
        role: asBuyer ? 'buyer' : 'seller',
        updatedAt: iso(c.updatedAt),
        unread: c.unread,
        listingActive: c.active,
      };
    });
    return { items, next };
  }

  async deleteConversation(p: Principal, interestId: number) {
    const i = await this.party(p, interestId);
    await this.repo.hide(interestId, i.buyerId === p.userId);
  }

  /**
   * The conversation's messages, oldest first, as MarketChatMessage[] JSON text. Forwards: after
   * `after` (or `cursor`: the same, an id), at most `limit` (without it CHAT_LIST_CAP); `next`: the
   * next page's cursor when more follow. Backwards (`last` or `before`): the newest `last` (without it
   * CHAT_LIST_CAP) before `before`; `prev`: the earlier page's cursor when earlier ones exist. Reading
   * them marks them read for the caller (up to the page's last).
   */
  async chatJson(
    p: Principal,
    interestId: number,
    q: ChatQuery = {},
  ): Promise<{ json: string; next?: string; prev?: string }> {
    const i = await this.party(p, interestId);
    const backwards = q.last !== undefined || q.before !== undefined;
    const page = backwards
      ? await this.repo.earlierMessagesJson(
          interestId,
          q.before ? Number(q.before) : 2_147_483_647,
          p.userId,
          q.last ?? CHAT_LIST_CAP,
        )
      : await this.repo.messagesJson(
          interestId,
          Math.max(q.after ?? 0, q.cursor ? Number(q.cursor) : 0),
          p.userId,
          q.limit ?? CHAT_LIST_CAP,
        );
    const { json, lastId } = page;
    const asBuyer = i.buyerId === p.userId;
    // A write only when there is something new to mark: reopening a read conversation costs none.
    if (lastId > (asBuyer ? i.buyerReadId : i.sellerReadId))
      await this.repo.markRead(interestId, asBuyer, lastId);
    if ('firstId' in page) return { json, ...(page.more ? { prev: String(page.firstId) } : {}) };
    return { json, ...(page.more ? { next: String(lastId) } : {}) };
  }

  /**
   * Sends; answers the conversation as GET with `q` does (without it the first page: the whole of
   * any of today's sizes, see chatJson; the web asks only for what follows its last message).
   */
  async send(
    p: Principal,
    interestId: number,
    message: string,
    q: ChatQuery = {},
  ): Promise<{ json: string; next?: string; prev?: string }> {
    const i = await this.party(p, interestId);
    const asBuyer = i.buyerId === p.userId;
    const id = await this.repo.addMessage(interestId, p.userId, message);
    await this.repo.markRead(interestId, asBuyer, id);
    const recipientId = asBuyer ? i.sellerId : i.buyerId;
    const [sender, recipient] = await this.repo.people(p.userId, recipientId);
    await this.repo.notify({
      userId: recipientId,
      vehicleId: null,
      type: 'MARKET_MESSAGE',
      ...messageText(recipient.language, sender.username, message),
    });
    return this.chatJson(p, interestId, q);
  }

  /**
   * The sale, in one transaction: the buyer becomes the owner (records travel with the vehicle),
   * the listing is deactivated, the old owner's reminders stop and the sent-reminder keys are
   * forgotten, other buyers are told, the chat gets the transfer line and the buyer a notification.
   * A retry after success changes nothing; any failing step leaves everything as it was.
   */
  async transfer(p: Principal, interestId: number): Promise<{ message: string }> {
    let droppedFiles: string[] = [];
    try {
      await this.repo.transaction(async (tx) => {
        const i = await tx.interest(interestId, true);
        if (!i || (i.buyerId !== p.userId && i.sellerId !== p.userId)) throw notFound('Conversation');
        if (i.sellerId !== p.userId) throw forbidden('Only the seller can transfer the vehicle.');
        if (!i.active) {
          if (i.listingBuyerId === i.buyerId) return; // already done: a retry is harmless
          throw inactive();
        }
        const oldOwner = await tx.vehicleOwner(i.vehicleId);
        if (oldOwner === undefined) throw notFound('Vehicle');
        await tx.deactivate(i.listingId, i.buyerId);
        await tx.addMessage(interestId, p.userId, TRANSFER_MESSAGE);
        const l = await tx.listing(i.listingId);
        if (!l) throw notFound('Listing');
        for (const other of await tx.otherInterests(i.listingId, interestId)) {
          await tx.addMessage(other.id, p.userId, SOLD_ELSEWHERE_MESSAGE);
          await tx.notify({
            userId: other.buyerId,
            vehicleId: null,
            type: 'MARKET_MESSAGE',
            ...soldText(other.language, l),
          });
        }
        await tx.resetReminders(i.vehicleId, oldOwner);
        // The new owner starts with no shares: every grantee (but the buyer) is told theirs ended.
        await this.sharing.endShares(tx.db, i.vehicleId, i.buyerId);
        droppedFiles = (await this.sharing.handOverDocuments?.(tx.db, i.vehicleId)) ?? [];
        await tx.changeOwner(i.vehicleId, i.buyerId);
        const [buyer] = await tx.people(i.buyerId);
        await tx.notify({
          userId: i.buyerId,
          vehicleId: i.vehicleId,
          type: 'MARKET_TRANSFER',
          ...transferText(buyer.language, l),
        });
      });
    } catch (err) {
      if (err instanceof UniqueViolation)
        throw new AppError(
          409,
          'DUPLICATE_REGISTRATION',
          'The buyer already has a vehicle with this registration number.',
        );
      throw err;
    }
    this.vehicleMoved();
    if (droppedFiles.length) await this.sharing.dropFiles?.(droppedFiles);
    return { message: TRANSFER_MESSAGE };
  }

  /** The listing if the caller is its seller or an admin; 404 otherwise. */
  private async managed(p: Principal, id: number) {
    const l = await this.repo.listing(id);
    if (!l || (p.role !== 'ADMIN' && l.sellerId !== p.userId)) throw notFound('Listing');
    return l;
  }

  /** The interest if the caller is one of its two parties (and has not deleted it); 404 otherwise. */
  private async party(p: Principal, interestId: number): Promise<InterestRow> {
    const i = await this.repo.interest(interestId);
    if (!i) throw notFound('Conversation');
    if (i.buyerId === p.userId && !i.hiddenForBuyer) return i;
    if (i.sellerId === p.userId && !i.hiddenForSeller) return i;
    throw notFound('Conversation');
  }

  private async present(id: number) {
    const row = await this.repo.card(id);
    if (!row) throw notFound('Listing');
    return presentListing(row);
  }

  private async storePhotos(vehicleId: number, photos: Buffer[]): Promise<string[]> {
    if (photos.length > LISTING_PHOTOS_MAX)
      throw fieldError('VALIDATION_FAILED', 400, 'photos', `At most ${LISTING_PHOTOS_MAX} photos.`);
    // Decode all first: one bad file refuses the request before anything is stored.
    const jpegs = await Promise.all(photos.map((b) => normalizePhoto(b)));
    const ids: string[] = [];
    for (const jpeg of jpegs) {
      const id = randomBytes(16).toString('base64url');
      await this.store.put(id, jpeg);
      await this.repo.addFile({ id, vehicleId, contentType: 'image/jpeg', size: jpeg.length });
      ids.push(id);
    }
    return ids;
  }

  private async deleteFiles(ids: string[]) {
    for (const id of ids) {
      await this.repo.deleteFileRow(id);
      await this.store.delete(id);
    }
  }
}
