import type { CurrencyCode, Language, ListingSort, RateSourceCode } from '@evdra/domain';
import { and, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { closedListingPhotoOfAnother } from '../../db/access.js';
import type { Executor } from '../../db/client.js';
import { uniqueChecked } from '../../db/errors.js';
import { timeIdAfter, timeIdCursor, timeIdValues } from '../../db/keyset.js';
import { createNotification } from '../../db/notify.js';
import { isoTimestamp, rowsOf } from '../../db/rows.js';
import {
  files,
  interests,
  listings,
  marketMessages,
  notifications,
  users,
  vehicles,
} from '../../db/schema.js';
import { type NamedStatement, namedStatement } from '../../db/statement.js';

/** node-postgres reads numeric as a string (exact); converting in JS is cheaper than ::float8 in SQL. */
type Numeric = string | number;

/** One card's facts as the listings statement returns them (numerics as the driver reads them, dates as text). */
export type CardRow = {
  id: number;
  vehicleId: number;
  make: string;
  model: string;
  year: number;
  engineSize: Numeric;
  odometer: number;
  fuelType: import('@evdra/domain').FuelType;
  secondaryFuelType: import('@evdra/domain').FuelType | null;
  aiScore: Numeric | null;
  price: Numeric;
  currency: CurrencyCode;
  exchangeRate: Numeric | null;
  rateDate: string | null;
  rateSource: RateSourceCode;
  /** The price in euros at the latest known rate (kept by triggers); null: no rate known. */
  priceEur: Numeric | null;
  /** The price minus its spec §9 estimate in euros, as text (1e12: no rating): the rating sort's key. */
  ratingRank: string;
  description: string;
  /** File ids joined by ',' (ids are base64url): cheaper to read than a text[]; '' for none. */
  photoIds: string;
  sellerUsername: string;
  sellerId: number;
  createdAt: string;
  services: number;
  lastServiceDate: string | null;
  lastServiceKm: number | null;
  recordsSince: string | null;
  fuelEntries: number;
  consumption: Numeric | null;
  /** The listing's open history-report link (made with the listing), if any. */
  reportToken: string | null;
  /** False once sold or deactivated (the list shows active ones only). */
  active: boolean;
};

/** What the service checks before changing a listing. */
export type ListingFacts = {
  id: number;
  vehicleId: number;
  sellerId: number;
  active: boolean;
  photoIds: string[];
  make: string;
  model: string;
  year: number;
} & ListingMoney;

/** A listing's price currency and its rate to the seller's currency (see recordMoney in the schema). */
export type ListingMoney = {
  currency: CurrencyCode;
  exchangeRate: number | null;
  rateDate: string | null;
  rateSource: RateSourceCode;
  rateCurrency: CurrencyCode;
};

export type Person = { username: string; language: Language };

/** The caller in the inbox statement, used five times. */
const USER_ID = sql.placeholder('userId');
/** The inbox page's size (one more than asked: whether more follow) and where it starts. */
const FETCH = sql.placeholder('fetch');
/** Where the page starts (keyset on (updated_at, id)). */
const INBOX_AFTER = timeIdAfter();

export type InterestRow = {
  id: number;
  listingId: number;
  buyerId: number;
  sellerId: number;
  vehicleId: number;
  active: boolean;
  listingBuyerId: number | null;
  hiddenForBuyer: boolean;
  hiddenForSeller: boolean;
  /** The last message id each party has seen. */
  buyerReadId: number;
  sellerReadId: number;
};

export type ConversationRow = {
  interestId: number;
  listingId: number;
  buyerId: number;
  sellerId: number;
  buyerName: string | null;
  sellerName: string | null;
  make: string;
  model: string;
  year: number;
  lastMessage: string | null;
  updatedAt: string | Date;
  unread: number;
  active: boolean;
  /** Where a page ending with this conversation says the next one starts. */
  cursor: string;
};

/**
 * The card columns of `where`'s listings. Chosen to be cheap to produce and read for
 * 10,000 rows: dates as ISO text (no Date objects), numerics as they are (numeric → float8 in SQL
 * cost more than Number() in JS), the photo ids as one string; the record summary is
 * vehicle_history's one row per car (kept by triggers).
 */
const cardsQuery = (where: SQL) => sql`
  select l.id, l.vehicle_id as "vehicleId", v.make, v.model, v.year, v.engine_size as "engineSize",
         v.odometer, v.fuel_type as "fuelType",
         v.secondary_fuel_type as "secondaryFuelType", v.ai_score as "aiScore", l.price,
         l.currency, l.exchange_rate as "exchangeRate", to_char(l.rate_date, 'YYYY-MM-DD') as "rateDate",
         l.rate_source as "rateSource", l.price_eur as "priceEur", l.rating_rank::text as "ratingRank",
         l.description, u.username as "sellerUsername", l.seller_id as "sellerId",
         array_to_string(case when cardinality(l.photo_ids) = 0 then array_remove(array[v.photo_id], null)
                              else l.photo_ids end, ',') as "photoIds",
         to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt",
         coalesce(h.services, 0) as services,
         to_char(h.last_service_date, 'YYYY-MM-DD') as "lastServiceDate", h.last_service_km as "lastServiceKm",
         to_char(h.records_since, 'YYYY-MM-DD') as "recordsSince",
         coalesce(h.fuel_entries, 0) as "fuelEntries", h.consumption,
         (select rl.token from report_links rl
           where rl.listing_id = l.id and rl.revoked_at is null and rl.expires_at > now()
           order by rl.id desc limit 1) as "reportToken", l.active
    from listings l
    join vehicles v on v.id = l.vehicle_id
    join users u on u.id = l.seller_id
    left join vehicle_history h on h.vehicle_id = l.vehicle_id
   where ${where}`;

/**
 * A page of the market as the repo asks it (the service turns the query's texts into these): make and
 * model texts to contain (spec §5, any case, like the stored lower-cased copies), the fuel codes and years that
 * match, the price band in euros, the sort and where the page starts.
 */
export type MarketPageQuery = {
  makeText?: string;
  modelText?: string;
  fuels?: readonly string[];
  years?: readonly number[];
  maxOdometer?: number;
  minEur?: number;
  maxEur?: number;
  sort: ListingSort;
  limit: number;
  after?: { rank?: string; id: number };
};

/** A LIKE pattern matching the values that contain `text` (its % _ \ taken literally). */
const containsPattern = (text: string) => sql`'%' || lower(${text.replace(/[\\%_]/g, '\\$&')}) || '%'`;
const list = (values: readonly (string | number)[]) =>
  values.length
    ? sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )
    : sql`null`;

/** The makes and models of active listings that contain the query's texts (see valuesContaining). */
type Matched = { makes?: readonly string[]; models?: readonly string[] };

/**
 * Each given filter as a condition on the listing's own copies (migration 0034_market_search), each
 * served by one partial index of the active listings.
 */
function marketConditions(q: MarketPageQuery, matched: Matched): SQL[] {
  const where = [sql`l.active`];
  // Spec §5: contains, any case: as the makes and models that contain the text, planned with their
  // values, a rare make is read from its index, a common one by walking the page's order.
  if (matched.makes) where.push(sql`l.search_make in (${list(matched.makes)})`);
  if (matched.models) where.push(sql`l.search_model in (${list(matched.models)})`);
  if (q.fuels) where.push(sql`(l.search_fuel in (${list(q.fuels)}) or l.search_fuel2 in (${list(q.fuels)}))`);
  if (q.years) where.push(sql`l.search_year in (${list(q.years)})`);
  if (q.maxOdometer !== undefined) where.push(sql`l.search_odometer <= ${q.maxOdometer}`);
  if (q.minEur !== undefined) where.push(sql`l.price_eur >= ${q.minEur}`);
  if (q.maxEur !== undefined) where.push(sql`l.price_eur <= ${q.maxEur}`);
  if (q.after && q.sort === 'rating')
    where.push(sql`(l.rating_rank, -l.id) > (${q.after.rank}::numeric, ${-q.after.id})`);
  else if (q.after) where.push(sql`l.id < ${q.after.id}`);
  return where;
}

const MARKET_ORDER: Record<ListingSort, SQL> = {
  newest: sql`l.id desc`,
  rating: sql`l.rating_rank, -l.id`,
};

/** The only code of the marketplace that touches the database. */
export class MarketplaceRepo {
  /** Public so steps of other features can join a transaction of this repo (the end of a car's shares). */
  constructor(readonly db: Executor) {}

  transaction<T>(fn: (repo: MarketplaceRepo) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new MarketplaceRepo(tx)));
  }

  /**
   * A page of active listings with the vehicle's current values, the seller and the record summary:
   * `limit` rows and one more (which says a next page exists). The page's ids are planned with the
   * values (a rare make walks its index, a common one the list's order); their cards come from a
   * named statement, planned once a connection: planning the cards' joins took 2.8 ms of every
   * page, the ids 0.1 ms (issue 54).
   */
  async cards(q: MarketPageQuery): Promise<CardRow[]> {
    const matched: Matched = {
      makes: q.makeText ? await this.valuesContaining('search_make', q.makeText) : undefined,
      models: q.modelText ? await this.valuesContaining('search_model', q.modelText) : undefined,
    };
    if (matched.makes?.length === 0 || matched.models?.length === 0) return [];
    const where = sql.join(marketConditions(q, matched), sql` and `);
    const page = sql`select l.id from listings l where ${where} order by ${MARKET_ORDER[q.sort]} limit ${q.limit + 1}`;
    const ids = rowsOf<{ id: number }>(await this.db.execute(page)).map((r) => r.id);
    if (!ids.length) return [];
    // Still active: one closed between the two statements is left out.
    this.cardsOf ??= namedStatement(
      this.db,
      'market_cards',
      cardsQuery(sql`l.id = any(${sql.placeholder('ids')}) and l.active`),
    );
    const byId = new Map((await this.cardsOf({ ids })).map((c) => [c.id, c]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }
  private cardsOf?: NamedStatement<CardRow>;

  /**
   * What every page of the market is true for: market_generation's number (migration 0043), which
   * every write a card shows changes, and the next expiry of a listing's report link (a card shows
   * the link until then, and no write marks it).
   */
  async pagesStamp(): Promise<string> {
    this.pagesStampOf ??= namedStatement<{ stamp: string }>(
      this.db,
      'market_pages_stamp',
      sql`select coalesce((select gen from market_generation), 0)::text || ':' || coalesce((
          select min(expires_at) from report_links
           where listing_id is not null and revoked_at is null and expires_at > now())::text, '') as stamp`,
    );
    const [row] = await this.pagesStampOf({});
    return row?.stamp ?? '';
  }
  private pagesStampOf?: NamedStatement<{ stamp: string }>;

  /**
   * The distinct makes (or models) of the active listings that contain `text`, any case: a skip
   * through the column's index, one probe per distinct value (a few dozen makes, a few hundred
   * models), not a read of every listing. Matched in the listings themselves, a rare make read all
   * 100,000 of them for a page (212 ms, issue 54).
   */
  private async valuesContaining(column: 'search_make' | 'search_model', text: string): Promise<string[]> {
    const c = sql.identifier(column);
    const next = (after: SQL) =>
      sql`select ${c} from ${listings} where active and ${c} > ${after} order by ${c} limit 1`;
    const rows = rowsOf<{ value: string }>(
      await this.db.execute(sql`with recursive v(value) as (
          (select ${c} from ${listings} where active and ${c} is not null order by ${c} limit 1)
          union all
          select (${next(sql`v.value`)}) from v where v.value is not null)
        select value from v where value like ${containsPattern(text)}`),
    );
    return rows.map((r) => r.value);
  }

  /** Units of `currency` per euro at the latest known rate; undefined: none known. */
  async perEuro(currency: CurrencyCode): Promise<number | undefined> {
    const [row] = rowsOf<{ rate: Numeric | null }>(
      await this.db.execute(sql`select evdra_per_euro(${currency}) as rate`),
    );
    return row?.rate == null ? undefined : Number(row.rate);
  }

  /** One listing's card, active or not (a named statement: planning its joins cost more than running them). */
  async card(id: number): Promise<CardRow | undefined> {
    this.cardOf ??= namedStatement(this.db, 'market_card', cardsQuery(sql`l.id = ${sql.placeholder('id')}`));
    const [row] = await this.cardOf({ id });
    return row;
  }
  private cardOf?: NamedStatement<CardRow>;

  /** What the service checks before changing a listing. */
  async listing(id: number): Promise<ListingFacts | undefined> {
    const [row] = await this.db
      .select({
        id: listings.id,
        vehicleId: listings.vehicleId,
        sellerId: listings.sellerId,
        active: listings.active,
        photoIds: listings.photoIds,
        make: vehicles.make,
        model: vehicles.model,
        year: vehicles.year,
        currency: listings.currency,
        exchangeRate: listings.exchangeRate,
        rateDate: listings.rateDate,
        rateSource: listings.rateSource,
        rateCurrency: listings.rateCurrency,
      })
      .from(listings)
      .innerJoin(vehicles, eq(vehicles.id, listings.vehicleId))
      .where(eq(listings.id, id));
    return row;
  }

  /**
   * The caller's vehicles without an active listing, newest first, as the response's JSON text: one
   * row from the database, nothing to map or serialise (the embedded database's single thread spent
   * more on handing over 50 rows than on finding them).
   */
  async unlistedVehiclesJson(ownerId: number): Promise<string> {
    this.unlisted ??= namedStatement<{ json: string }>(
      this.db,
      'market_unlisted_vehicles_json',
      // string_agg of row_to_json: compact (json_agg puts ", \n " between rows).
      sql`select '[' || coalesce(string_agg(row_to_json(r)::text, ',' order by r.id desc), '') || ']' as json
           from (select v.id, v.make, v.model, v.year from vehicles v
                  where v.owner_id = ${sql.placeholder('ownerId')}
                    and not exists (select 1 from listings l where l.vehicle_id = v.id and l.active)) r`,
    );
    const [row] = await this.unlisted({ ownerId });
    return row?.json ?? '[]';
  }
  private unlisted?: NamedStatement<{ json: string }>;

  /** A user's currency: a listing's price converts into its seller's. */
  async currencyOf(userId: number): Promise<CurrencyCode | undefined> {
    const [row] = await this.db.select({ currency: users.currency }).from(users).where(eq(users.id, userId));
    return row?.currency;
  }

  async vehicleOwner(vehicleId: number): Promise<number | undefined> {
    const [row] = await this.db
      .select({ ownerId: vehicles.ownerId })
      .from(vehicles)
      .where(eq(vehicles.id, vehicleId));
    return row?.ownerId;
  }

  async insertListing(
    v: {
      vehicleId: number;
      sellerId: number;
      price: number;
      description: string;
      photoIds: string[];
    } & ListingMoney,
  ): Promise<number> {
    const [row] = await uniqueChecked(this.db.insert(listings).values(v).returning({ id: listings.id }));
    if (!row) throw new Error('insert returned nothing');
    return row.id;
  }

  async updateListing(
    id: number,
    changes: { price: number; description: string; photoIds: string[] } & ListingMoney,
  ) {
    await this.db
      .update(listings)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(listings.id, id));
  }

  async deleteListing(id: number) {
    await this.db.delete(listings).where(eq(listings.id, id));
  }

  // ── files ──
  async addFile(f: { id: string; vehicleId: number; contentType: string; size: number }) {
    await this.db.insert(files).values(f);
  }

  async deleteFileRow(id: string) {
    await this.db.delete(files).where(eq(files.id, id));
  }

  /**
   * The content type of a file that is a listing's photo, or the photo of a listed vehicle (shown as
   * the first picture), that `userId` may see; undefined for any other file. An active listing's
   * photos are the market's; one no longer active (sold, deactivated) keeps its photos for its
   * seller and admins (userId null) only. One named statement on indexes (the GIN index on
   * photo_ids, the active listing of the file's vehicle), whatever the size of the market.
   */
  async listingPhotoType(fileId: string, userId: number | null): Promise<string | undefined> {
    this.photoType ??= namedStatement<{ contentType: string }>(
      this.db,
      'market_photo_type_for_user',
      sql`select f.content_type as "contentType" from files f
           where f.id = ${sql.placeholder('id')}
             and (exists (select 1 from listings l where l.photo_ids @> array[f.id])
                  or exists (select 1 from listings l join vehicles v on v.id = l.vehicle_id
                              where l.vehicle_id = f.vehicle_id and l.active and v.photo_id = f.id))
             and not ${closedListingPhotoOfAnother(sql`f.id`)}`,
    );
    const [row] = await this.photoType({ id: fileId, userId });
    return row?.contentType;
  }
  private photoType?: NamedStatement<{ contentType: string }>;

  // ── interests and messages ──
  async interestFor(listingId: number, buyerId: number): Promise<number | undefined> {
    const [row] = await this.db
      .select({ id: interests.id })
      .from(interests)
      .where(and(eq(interests.listingId, listingId), eq(interests.buyerId, buyerId)));
    return row?.id;
  }

  /** Creates the (listing, buyer) conversation once; a repeat (even concurrent) answers the same id. */
  async upsertInterest(
    listingId: number,
    buyerId: number,
    sellerId: number,
  ): Promise<{ id: number; created: boolean }> {
    const [row] = await this.db
      .insert(interests)
      .values({ listingId, buyerId, sellerId })
      .onConflictDoNothing()
      .returning({ id: interests.id });
    if (row) return { id: row.id, created: true };
    const id = await this.interestFor(listingId, buyerId);
    if (id === undefined) throw new Error('interest vanished');
    await this.db.update(interests).set({ hiddenForBuyer: false }).where(eq(interests.id, id));
    return { id, created: false };
  }

  /**
   * A conversation with its listing's parties. The chat's poll reads it on the pool (a named statement);
   * `forUpdate`, in the sale's transaction, also locks the listing.
   */
  async interest(id: number, forUpdate = false): Promise<InterestRow | undefined> {
    if (forUpdate)
      return rowsOf<InterestRow>(await this.db.execute(sql`${interestQuery(id)} for update of l`))[0];
    this.interestById ??= namedStatement<InterestRow>(
      this.db,
      'interest_by_id',
      interestQuery(sql.placeholder('id')),
    );
    const [row] = await this.interestById({ id });
    return row;
  }
  private interestById?: NamedStatement<InterestRow>;

  /**
   * The user's conversations, latest activity first (a named statement: the inbox is polled), at most
   * `fetch` of them after `cursor` (a TimeIdCursor) in the (updated_at, id) order (keyset paging,
   * issue 54). Each side walks its index backwards in the list's order, (buyer_id | seller_id,
   * updated_at, id) (migration 0037), and the two are merged; only the page's rows get their last message and unread count.
   * Without a cursor the key starts at infinity: one plan for every page.
   */
  async conversations(userId: number, page: { fetch: number; cursor?: string }): Promise<ConversationRow[]> {
    this.inbox ??= namedStatement<ConversationRow>(
      this.db,
      'market_conversations_page',
      sql`
        with page as (
          (select i.id, i.updated_at from interests i
            where i.buyer_id = ${USER_ID}::int and not i.hidden_for_buyer and (i.updated_at, i.id) < ${INBOX_AFTER}
            order by i.updated_at desc, i.id desc limit ${FETCH})
          union all
          (select i.id, i.updated_at from interests i
            where i.seller_id = ${USER_ID}::int and not i.hidden_for_seller
              and not (i.buyer_id = ${USER_ID}::int and not i.hidden_for_buyer)
              and (i.updated_at, i.id) < ${INBOX_AFTER}
            order by i.updated_at desc, i.id desc limit ${FETCH})
          order by updated_at desc, id desc limit ${FETCH}
        )
        select i.id as "interestId", i.listing_id as "listingId", i.buyer_id as "buyerId",
               l.seller_id as "sellerId", b.username as "buyerName", s.username as "sellerName",
               v.make, v.model, v.year, m.content as "lastMessage", i.updated_at as "updatedAt",
               l.active,
               (select count(*)::int from market_messages x
                 where x.interest_id = i.id and x.sender_id is distinct from ${USER_ID}::int
                   and x.id > case when i.buyer_id = ${USER_ID}::int then i.buyer_read_id else i.seller_read_id end
               ) as unread,
               ${timeIdCursor(sql`i.updated_at`, sql`i.id`)} as cursor
          from page p
          join interests i on i.id = p.id
          join listings l on l.id = i.listing_id
          join vehicles v on v.id = l.vehicle_id
          left join users b on b.id = i.buyer_id
          left join users s on s.id = l.seller_id
          left join lateral (
            select content from market_messages x where x.interest_id = i.id order by x.id desc limit 1
          ) m on true
         order by p.updated_at desc, p.id desc`,
    );
    return this.inbox({
      userId,
      fetch: page.fetch,
      ...timeIdValues(page.cursor),
    });
  }
  private inbox?: NamedStatement<ConversationRow>;

  /**
   * The conversation's messages after `afterId`, oldest first (a named statement: open chats poll it),
   * at most `limit` of them (keyset on the (interest_id, id) index, issue 54), as the API's
   * MarketChatMessage array written by the database (`mine`: sent by `viewerId`), the id of the last
   * one (0: none) and whether more follow it.
   */
  async messagesJson(
    interestId: number,
    afterId: number,
    viewerId: number,
    limit: number,
  ): Promise<{ json: string; lastId: number; more: boolean }> {
    this.chat ??= namedStatement<{ json: string; lastId: number; more: boolean }>(
      this.db,
      'market_messages_page_after',
      sql`
        select coalesce(json_agg(r), '[]')::text as json, coalesce(max(r.id), 0) as "lastId",
               exists (select 1 from market_messages y
                        where y.interest_id = ${sql.placeholder('interestId')}
                          and y.id > coalesce(max(r.id), ${sql.placeholder('afterId')})) as more
          from (
          select m.id, coalesce(u.username, '') as sender, m.content,
                 m.sender_id is not distinct from ${sql.placeholder('viewerId')}::int as mine,
                 ${isoTimestamp(sql`m.created_at`)} as timestamp
            from market_messages m left join users u on u.id = m.sender_id
           where m.interest_id = ${sql.placeholder('interestId')} and m.id > ${sql.placeholder('afterId')}
           order by m.id limit ${sql.placeholder('limit')}) r`,
    );
    const [row] = await this.chat({ interestId, afterId, viewerId, limit });
    return row ?? { json: '[]', lastId: 0, more: false };
  }
  private chat?: NamedStatement<{ json: string; lastId: number; more: boolean }>;

  /**
   * The newest `limit` of the conversation's messages before `beforeId` (backwards on the
   * (interest_id, id) index, issue 54: a chat opens at its newest and reads earlier ones on
   * demand), oldest first, as messagesJson writes them; the ids of the first and last (0: none)
   * and whether earlier ones exist.
   */
  async earlierMessagesJson(
    interestId: number,
    beforeId: number,
    viewerId: number,
    limit: number,
  ): Promise<{ json: string; firstId: number; lastId: number; more: boolean }> {
    this.earlierChat ??= namedStatement<{ json: string; firstId: number; lastId: number; more: boolean }>(
      this.db,
      'market_messages_page_before',
      sql`
        select coalesce(json_agg(r), '[]')::text as json, coalesce(min(r.id), 0) as "firstId",
               coalesce(max(r.id), 0) as "lastId",
               exists (select 1 from market_messages y
                        where y.interest_id = ${sql.placeholder('interestId')} and y.id < min(r.id)) as more
          from (
          select * from (
            select m.id, coalesce(u.username, '') as sender, m.content,
                   m.sender_id is not distinct from ${sql.placeholder('viewerId')}::int as mine,
                   ${isoTimestamp(sql`m.created_at`)} as timestamp
              from market_messages m left join users u on u.id = m.sender_id
             where m.interest_id = ${sql.placeholder('interestId')} and m.id < ${sql.placeholder('beforeId')}
             order by m.id desc limit ${sql.placeholder('limit')}) newest
          order by id) r`,
    );
    const [row] = await this.earlierChat({ interestId, beforeId, viewerId, limit });
    return row ?? { json: '[]', firstId: 0, lastId: 0, more: false };
  }
  private earlierChat?: NamedStatement<{ json: string; firstId: number; lastId: number; more: boolean }>;

  /** Adds a message; the conversation comes back for whoever had hidden it, and moves to the top. */
  async addMessage(interestId: number, senderId: number, content: string): Promise<number> {
    const [row] = await this.db
      .insert(marketMessages)
      .values({ interestId, senderId, content })
      .returning({ id: marketMessages.id });
    await this.db
      .update(interests)
      .set({ hiddenForBuyer: false, hiddenForSeller: false, updatedAt: new Date() })
      .where(eq(interests.id, interestId));
    if (!row) throw new Error('insert returned nothing');
    return row.id;
  }

  async markRead(interestId: number, asBuyer: boolean, upToId: number) {
    await this.db
      .update(interests)
      .set(
        asBuyer
          ? { buyerReadId: sql`greatest(${interests.buyerReadId}, ${upToId})` }
          : { sellerReadId: sql`greatest(${interests.sellerReadId}, ${upToId})` },
      )
      .where(eq(interests.id, interestId));
  }

  async hide(interestId: number, asBuyer: boolean) {
    await this.db
      .update(interests)
      .set(asBuyer ? { hiddenForBuyer: true } : { hiddenForSeller: true })
      .where(eq(interests.id, interestId));
  }

  /** The listing's other conversations, with each buyer's language for the notification. */
  async otherInterests(listingId: number, exceptId: number) {
    return rowsOf<{ id: number; buyerId: number; language: Language }>(
      await this.db.execute(sql`
        select i.id, i.buyer_id as "buyerId", u.language
          from interests i join users u on u.id = i.buyer_id
         where i.listing_id = ${listingId} and i.id <> ${exceptId}`),
    );
  }

  async notify(n: {
    userId: number;
    vehicleId: number | null;
    type: 'MARKET_INTEREST' | 'MARKET_MESSAGE' | 'MARKET_TRANSFER';
    title: string;
    content: string;
  }) {
    await createNotification(this.db, n);
  }

  /** Name and saved language of each user asked for (a deleted user: '' and English). */
  async people<T extends number[]>(...ids: T): Promise<{ [K in keyof T]: Person }> {
    const rows = rowsOf<{ id: number; username: string; language: Language }>(
      await this.db.execute(
        sql`select id, username, language from users where id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      ),
    );
    return ids.map((id): Person => rows.find((r) => r.id === id) ?? { username: '', language: 'en' }) as {
      [K in keyof T]: Person;
    };
  }

  // ── transfer steps (run inside one transaction) ──
  async deactivate(listingId: number, buyerId: number) {
    await this.db
      .update(listings)
      .set({ active: false, buyerId, soldAt: new Date(), updatedAt: new Date() })
      .where(eq(listings.id, listingId));
  }

  /** Hands the vehicle to the new owner (a registration clash with their cars fails the statement). */
  async changeOwner(vehicleId: number, ownerId: number) {
    await uniqueChecked(
      this.db
        .update(vehicles)
        .set({ ownerId, version: sql`${vehicles.version} + 1`, updatedAt: new Date() })
        .where(eq(vehicles.id, vehicleId)),
    );
  }

  /**
   * The old owner's reminders for the vehicle stop (their reminder notifications for it go), and the
   * sent-reminder keys of its policies and services are forgotten so the new owner gets their own.
   */
  async resetReminders(vehicleId: number, oldOwnerId: number) {
    await this.db
      .delete(notifications)
      .where(
        and(
          eq(notifications.userId, oldOwnerId),
          eq(notifications.vehicleId, vehicleId),
          sql`${notifications.type} in ('INSURANCE_REMINDER', 'REVISION_REMINDER', 'RENEWAL_REMINDER')`,
        ),
      );
    await this.db.execute(sql`
      delete from sent_reminders s
       where (split_part(s.key, ':', 1) = 'INSURANCE'
              and split_part(s.key, ':', 2) in (select id::text from insurances where vehicle_id = ${vehicleId}))
          or (split_part(s.key, ':', 1) = 'REVISION'
              and split_part(s.key, ':', 2) in (select id::text from revisions where vehicle_id = ${vehicleId}))`);
  }
}

const interestQuery = (id: number | Placeholder) => sql`
  select i.id, i.listing_id as "listingId", i.buyer_id as "buyerId", l.seller_id as "sellerId",
         l.vehicle_id as "vehicleId", l.active, l.buyer_id as "listingBuyerId",
         i.hidden_for_buyer as "hiddenForBuyer", i.hidden_for_seller as "hiddenForSeller",
         i.buyer_read_id as "buyerReadId", i.seller_read_id as "sellerReadId"
    from interests i join listings l on l.id = i.listing_id
   where i.id = ${id}`;
