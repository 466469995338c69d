import {
  CONSUMPTION_UNITS,
  CURRENCIES,
  DISTANCE_UNITS,
  DOCUMENT_TYPES,
  FUEL_TYPES,
  RATE_SOURCES,
  RENEWAL_TYPES,
  VOLUME_UNITS,
} from '@evdra/domain';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  pgView,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['USER', 'ADMIN'] })
      .notNull()
      .default('USER'),
    status: text('status', { enum: ['Active', 'Suspended', 'Pending'] })
      .notNull()
      .default('Active'),
    gdprConsent: boolean('gdpr_consent').notNull().default(false),
    language: text('language', { enum: ['en', 'ro', 'es'] })
      .notNull()
      .default('en'),
    /** Bumped to end every session at once (password reset); access tokens carry it. */
    sessionEpoch: integer('session_epoch').notNull().default(0),
    /** Renewal presets and a new account's money and units (RO, ES, GB, US, GENERIC); null follows the language. */
    country: text('country', { enum: ['RO', 'ES', 'GB', 'US', 'GENERIC'] }),
    // The user's money and units (issue 50). The defaults are what every account made before them
    // keeps (EXISTING_USER_MONEY_AND_UNITS); a new account is given its country's.
    currency: text('currency', { enum: CURRENCIES }).notNull().default('EUR'),
    distanceUnit: text('distance_unit', { enum: DISTANCE_UNITS }).notNull().default('km'),
    volumeUnit: text('volume_unit', { enum: VOLUME_UNITS }).notNull().default('L'),
    consumptionUnit: text('consumption_unit', { enum: CONSUMPTION_UNITS }).notNull().default('L_100KM'),
    /** The secret of the user's calendar feed URL (random, base64url); null until first asked for. */
    calendarToken: text('calendar_token'),
    /** Which kinds of notification are also pushed to the user's devices. */
    pushReminders: boolean('push_reminders').notNull().default(true),
    pushMarketplace: boolean('push_marketplace').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_idx').on(t.email),
    uniqueIndex('users_calendar_token_idx').on(t.calendarToken),
  ],
);

/** Rotating refresh tokens; a family is one login. Only hashes are stored. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** Absolute end of the family (30 days after login); rotation never extends it. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_idx').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
    index('refresh_tokens_expires_idx').on(t.expiresAt),
  ],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('password_reset_tokens_hash_idx').on(t.tokenHash),
    index('password_reset_tokens_user_idx').on(t.userId),
    index('password_reset_tokens_expires_idx').on(t.expiresAt),
  ],
);

/** Failed logins per account, kept in the database so every replica sees the same count. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: serial('id').primaryKey(),
    accountKey: text('account_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_failures_account_idx').on(t.accountKey, t.createdAt),
    index('login_failures_created_idx').on(t.createdAt),
  ],
);

const money = (name: string) => numeric(name, { precision: 12, scale: 2, mode: 'number' });
/**
 * What a record with an amount says of its money (issue 50): the currency it was paid in and the rate
 * to its owner's currency: `exchangeRate` units of `rateCurrency` (the owner's when the rate was set;
 * an owner may change currency later) for one of `currency`, from `rateDate`, by `rateSource`.
 * Records written before currencies existed were euros, their owners' currency (rate 1).
 * `exchangeRate` is null only on a record without an amount whose currency had no known rate.
 */
const recordMoney = () => ({
  currency: text('currency', { enum: CURRENCIES }).notNull().default('EUR'),
  exchangeRate: numeric('exchange_rate', { precision: 20, scale: 12, mode: 'number' }).default(1),
  rateDate: date('rate_date'),
  rateSource: text('rate_source', { enum: RATE_SOURCES }).notNull().default('ECB'),
  rateCurrency: text('rate_currency', { enum: CURRENCIES }).notNull().default('EUR'),
});
/** The user who wrote a record; the record stays when the account goes. */
const createdBy = () => integer('created_by').references(() => users.id, { onDelete: 'set null' });
const vehicleRef = () =>
  integer('vehicle_id')
    .notNull()
    .references(() => vehicles.id, { onDelete: 'cascade' });

export const vehicles = pgTable(
  'vehicles',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    make: text('make').notNull(),
    model: text('model').notNull(),
    year: integer('year').notNull(),
    fuelType: text('fuel_type', { enum: FUEL_TYPES }).notNull(),
    /**
     * The second fuel (migration 0028_two_fuels, issue 51): null for a single-fuel vehicle; else one
     * that pairs with fuel_type (FUEL_PAIRS). The tank or battery sizes are in each fuel's unit.
     */
    secondaryFuelType: text('secondary_fuel_type', { enum: FUEL_TYPES }),
    tankCapacity: numeric('tank_capacity', { precision: 8, scale: 2, mode: 'number' }),
    secondaryTankCapacity: numeric('secondary_tank_capacity', { precision: 8, scale: 2, mode: 'number' }),
    registrationNumber: text('registration_number').notNull(),
    /**
     * Optional VIN (migration 0021_vehicle_vin): 17 characters of ISO 3779 (no I, O, Q), stored
     * upper-case; null when the owner gave none. Not unique: more than one account may record the same car.
     */
    vin: text('vin'),
    engineSize: numeric('engine_size', { precision: 4, scale: 2, mode: 'number' }).notNull(),
    odometer: integer('odometer').notNull(),
    aiEvaluationConsent: boolean('ai_evaluation_consent').notNull().default(false),
    aiScore: numeric('ai_score', { precision: 3, scale: 1, mode: 'number' }),
    aiScoreReason: text('ai_score_reason'),
    /**
     * What a built-in evaluation's reason is made of (migration 0040, issue 50: ai/evaluate.ts's
     * EvaluationBasis), so each reader reads it in their language, currency and units; null for a
     * text a language model wrote and for evaluations before it (ai_score_reason is read as stored).
     */
    aiScoreBasis: jsonb('ai_score_basis'),
    photoId: text('photo_id'),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('vehicles_owner_idx').on(t.ownerId, t.id),
    uniqueIndex('vehicles_owner_registration_idx').on(t.ownerId, t.registrationNumber),
    // Analytics' by-fuel split finds the caller's two-fuel vehicles here (migration 0032_scale_indexes).
    index('vehicles_two_fuels_idx').on(t.id).where(sql`${t.secondaryFuelType} is not null`),
    check('vehicles_vin_check', sql`${t.vin} ~ '^[A-HJ-NPR-Z0-9]{17}$'`),
  ],
);

/**
 * A vehicle shared by its owner with another user: VIEWER reads it and its records, EDITOR also
 * writes its records. With the owner, this is the access rule: the `vehicle_access` view (migration
 * 0015_vehicle_shares) joins both, and every read and write of a vehicle goes through it.
 */
export const SHARE_ROLES = ['VIEWER', 'EDITOR'] as const;
export const vehicleShares = pgTable(
  'vehicle_shares',
  {
    vehicleId: vehicleRef(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: SHARE_ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.vehicleId, t.userId] }),
    index('vehicle_shares_user_idx').on(t.userId, t.vehicleId),
    check('vehicle_shares_role_check', sql`${t.role} in ('VIEWER', 'EDITOR')`),
  ],
);

/**
 * THE access rule, in one place (a view, migration 0015_vehicle_shares): one row per (vehicle, user
 * who reaches it) with their relation, 'OWNER' (vehicles.owner_id) or the share's role. Administrators
 * are not in it: they reach every vehicle, as the callers decide.
 */
export const vehicleAccess = pgView('vehicle_access', {
  vehicleId: integer('vehicle_id').notNull(),
  userId: integer('user_id').notNull(),
  access: text('access', { enum: ['OWNER', ...SHARE_ROLES] }).notNull(),
}).existing();

export const insurances = pgTable(
  'insurances',
  {
    id: serial('id').primaryKey(),
    vehicleId: vehicleRef(),
    provider: text('provider').notNull(),
    policyNumber: text('policy_number').notNull().default(''),
    coverageType: text('coverage_type').notNull().default(''),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    price: money('price').notNull(),
    reminderEnabled: boolean('reminder_enabled').notNull().default(true),
    ...recordMoney(),
    /** Bumped on every change: a stale PUT (offline queue) gets 409 with the current row. */
    version: integer('version').notNull().default(0),
    /** Who wrote it (the owner, or an editor of a shared vehicle); null once that account is gone. */
    createdById: createdBy(),
    createdAt: createdAt(),
  },
  (t) => [
    index('insurances_vehicle_keyset_idx').on(t.vehicleId, t.startDate, t.id),
    index('insurances_created_by_idx').on(t.createdById),
    // The reminder job's policies ending soon (migration 0035).
    index('insurances_reminder_end_idx').on(t.endDate).where(sql`${t.reminderEnabled}`),
  ],
);

export const expenses = pgTable(
  'expenses',
  {
    id: serial('id').primaryKey(),
    vehicleId: vehicleRef(),
    date: date('date').notNull(),
    expenseType: text('expense_type').notNull(),
    amount: money('amount').notNull(),
    description: text('description').notNull().default(''),
    ...recordMoney(),
    /** Bumped on every change: a stale PUT (offline queue) gets 409 with the current row. */
    version: integer('version').notNull().default(0),
    /** Who wrote it (the owner, or an editor of a shared vehicle); null once that account is gone. */
    createdById: createdBy(),
    createdAt: createdAt(),
  },
  (t) => [
    index('expenses_vehicle_keyset_idx').on(t.vehicleId, t.date, t.id),
    index('expenses_created_by_idx').on(t.createdById),
  ],
);

export const fuelEntries = pgTable(
  'fuel_entries',
  {
    id: serial('id').primaryKey(),
    vehicleId: vehicleRef(),
    /** One of its vehicle's fuels (checked on write since issue 51; older fills may hold another). */
    fuelType: text('fuel_type', { enum: FUEL_TYPES }).notNull(),
    liters: numeric('liters', { precision: 10, scale: 2, mode: 'number' }).notNull(),
    fuelPrice: money('fuel_price').notNull(),
    pricePerLiter: numeric('price_per_liter', { precision: 10, scale: 4, mode: 'number' }),
    odometer: integer('odometer'),
    date: date('date').notNull(),
    fullTank: boolean('full_tank').notNull().default(true),
    missedPrevious: boolean('missed_previous').notNull().default(false),
    /** km on this fuel since the previous fill of the same fuel (migration 0028_two_fuels); null: unknown. */
    distanceOnThisFuel: numeric('distance_on_this_fuel', { precision: 10, scale: 1, mode: 'number' }),
    ...recordMoney(),
    /** Derived by the full-tank-to-full-tank rule; recomputed after every write to the vehicle's fuel. */
    consumptionPer100km: numeric('consumption_per_100km', { precision: 8, scale: 2, mode: 'number' }),
    /** Bumped on every change: a stale PUT (offline queue) gets 409 with the current row. */
    version: integer('version').notNull().default(0),
    /** Who wrote it (the owner, or an editor of a shared vehicle); null once that account is gone. */
    createdById: createdBy(),
    createdAt: createdAt(),
  },
  (t) => [
    // The id too: a page of the list (keyset over date, id; issue 54) is one index range in its order.
    index('fuel_entries_vehicle_keyset_idx').on(t.vehicleId, t.date, t.id),
    index('fuel_entries_vehicle_fuel_idx').on(t.vehicleId, t.fuelType, t.date),
    index('fuel_entries_created_by_idx').on(t.createdById),
  ],
);

export const revisions = pgTable(
  'revisions',
  {
    id: serial('id').primaryKey(),
    vehicleId: vehicleRef(),
    date: date('date').notNull(),
    km: integer('km').notNull(),
    price: money('price').notNull(),
    description: text('description').notNull().default(''),
    reminderEnabled: boolean('reminder_enabled').notNull().default(true),
    manualReminderDate: date('manual_reminder_date'),
    ...recordMoney(),
    /** Bumped on every change: a stale PUT (offline queue) gets 409 with the current row. */
    version: integer('version').notNull().default(0),
    /** Who wrote it (the owner, or an editor of a shared vehicle); null once that account is gone. */
    createdById: createdBy(),
    createdAt: createdAt(),
  },
  (t) => [
    index('revisions_vehicle_keyset_idx').on(t.vehicleId, t.date, t.id),
    index('revisions_created_by_idx').on(t.createdById),
  ],
);

/**
 * Renewals a driver must not miss (RCA, ITP, rovinietă, ITV, IVTM, road tax…), one row per period.
 * The price counts as an expense in analytics (trigger in migration 0015), in the month of
 * validFrom, or of the day it was entered when validFrom is unknown.
 */
export const renewals = pgTable(
  'renewals',
  {
    id: serial('id').primaryKey(),
    vehicleId: vehicleRef(),
    type: text('type', { enum: RENEWAL_TYPES }).notNull(),
    validFrom: date('valid_from'),
    validUntil: date('valid_until').notNull(),
    price: money('price'),
    note: text('note').notNull().default(''),
    reminderEnabled: boolean('reminder_enabled').notNull().default(true),
    ...recordMoney(),
    /** Bumped on every change: a stale PUT gets 409 with the current row. */
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Who wrote it (the owner, or an editor of a shared vehicle); null once that account is gone. */
    createdById: createdBy(),
  },
  (t) => [
    index('renewals_vehicle_keyset_idx').on(t.vehicleId, t.validUntil, t.id),
    index('renewals_created_by_idx').on(t.createdById),
    // The reminder job's renewals expiring soon (migration 0035).
    index('renewals_reminder_until_idx').on(t.validUntil).where(sql`${t.reminderEnabled}`),
  ],
);

/** Stored files (vehicle photos): the bytes live in the FileStore under the server-made id. */
export const files = pgTable(
  'files',
  {
    id: text('id').primaryKey(),
    vehicleId: integer('vehicle_id').references(() => vehicles.id, { onDelete: 'set null' }),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('files_vehicle_idx').on(t.vehicleId), index('files_created_idx').on(t.createdAt)],
);

/** PostgreSQL bytea as a Buffer (node-postgres gives a Buffer, PGlite a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/**
 * The bytes of stored files (the database FileStore), by the same server-made id as `files`. In the
 * database so every replica serves every file and one backup holds everything.
 */
export const fileBlobs = pgTable(
  'file_blobs',
  {
    id: text('id').primaryKey(),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('file_blobs_created_idx').on(t.createdAt)],
);

/** Replays the first response of a create retried with the same Idempotency-Key (24 h). */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    statusCode: integer('status_code'),
    body: text('body'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    vehicleId: integer('vehicle_id').references(() => vehicles.id, { onDelete: 'cascade' }),
    type: text('type', {
      enum: [
        'REVISION_REMINDER',
        'INSURANCE_REMINDER',
        'MARKET_INTEREST',
        'MARKET_MESSAGE',
        'MARKET_TRANSFER',
        'RENEWAL_REMINDER',
        'VEHICLE_SHARED',
        'VEHICLE_ACCESS_ENDED',
        'WEBHOOK_PAUSED',
      ],
    }).notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    read: boolean('read').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_keyset_idx').on(t.userId, t.createdAt, t.id),
    index('notifications_vehicle_idx').on(t.vehicleId),
    index('notifications_created_idx').on(t.createdAt),
  ],
);

/**
 * Every reminder ever sent, by (item, due basis, threshold): kept when notifications are cleared,
 * so a reminder is never sent twice, even by two overlapping runs.
 */
export const sentReminders = pgTable('sent_reminders', {
  key: text('key').primaryKey(),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A vehicle's records version: triggers (migration 0020_record_versions) set it to a fresh value of
 * `record_version_seq` whenever one of its records (fuel, expenses, insurance, services, renewals)
 * is written or deleted, or a writer of one is renamed. A server keeps a vehicle's record lists
 * while the version is unchanged; a vehicle never written since the migration has no row (0).
 * Values never repeat, even after a restore: a cached list can never pass for another.
 */
export const vehicleRecordVersions = pgTable(
  'vehicle_record_versions',
  {
    vehicleId: integer('vehicle_id')
      .primaryKey()
      .references(() => vehicles.id, { onDelete: 'cascade' }),
    /** The car's owner, kept by the triggers (0044): a user's versions are one range of its index. */
    ownerId: integer('owner_id').notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
  },
  (t) => [index('vehicle_record_versions_owner_idx').on(t.ownerId)],
);

/**
 * Monthly cost rollup per vehicle, kept by triggers on the four record tables (migration
 * 0004_cost_rollup_triggers) so analytics read a few rows instead of aggregating every record.
 * No foreign key: record triggers still write while a vehicle's delete cascades.
 */
export const vehicleMonthCosts = pgTable(
  'vehicle_month_costs',
  {
    vehicleId: integer('vehicle_id').notNull(),
    month: date('month').notNull(),
    /**
     * The currency the month's sums are in: each record's amount times its rate, in the owner's
     * currency when the rate was set (rate_currency); an owner who changed currency has a row of each.
     */
    currency: text('currency', { enum: CURRENCIES }).notNull().default('EUR'),
    liters: numeric('liters', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
    fuel: numeric('fuel', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
    expenses: numeric('expenses', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
    insurance: numeric('insurance', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
    revisions: numeric('revisions', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.vehicleId, t.month, t.currency] }),
    // The admin's car-months in their order, newest month first then by vehicle (a page is one range read).
    index('vehicle_month_costs_month_vehicle_idx').on(t.month.desc(), t.vehicleId),
  ],
);

/** The virtual mechanic's conversation, per user; the service keeps only the newest messages. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['user', 'ai'] }).notNull(),
    content: text('content').notNull(),
    /** On AI messages: what the answer was about (intent, vehicles, month), for follow-up questions. */
    context: jsonb('context'),
    createdAt: createdAt(),
  },
  (t) => [index('chat_messages_user_idx').on(t.userId, t.id)],
);

/**
 * Marketplace listings. Make, model, year, engine, km, fuel and AI score are read from the vehicle
 * (never copied), so a card always shows current values. At most one active listing per vehicle;
 * a transferred listing stays (inactive) for both parties' conversation history.
 */
export const listings = pgTable(
  'listings',
  {
    id: serial('id').primaryKey(),
    vehicleId: vehicleRef(),
    sellerId: integer('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    price: money('price').notNull(),
    /** The price's currency and its rate to the seller's (issue 50; existing listings: euros). */
    ...recordMoney(),
    description: text('description').notNull().default(''),
    /** Ids in the FileStore, in display order; the vehicle's own photo is not copied here. */
    photoIds: text('photo_ids').array().notNull().default(sql`'{}'::text[]`),
    active: boolean('active').notNull().default(true),
    buyerId: integer('buyer_id').references(() => users.id, { onDelete: 'set null' }),
    soldAt: timestamp('sold_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * What the market's filters and sort compare (migration 0034_market_search, issue 54), written by
     * triggers only: the vehicle's make and model lower-cased (C collation: a prefix is an index
     * range), fuels, year and km; the price in euros at the latest rate; the price minus the spec §9
     * estimate in euros (1e12 without a rating).
     */
    searchMake: text('search_make'),
    searchModel: text('search_model'),
    searchFuel: text('search_fuel'),
    searchFuel2: text('search_fuel2'),
    searchYear: integer('search_year'),
    searchOdometer: integer('search_odometer'),
    priceEur: numeric('price_eur', { precision: 14, scale: 2, mode: 'number' }),
    ratingRank: numeric('rating_rank', { precision: 15, scale: 2, mode: 'number' })
      .notNull()
      .default(1_000_000_000_000),
  },
  (t) => [
    uniqueIndex('listings_active_vehicle_idx').on(t.vehicleId).where(sql`${t.active}`),
    // Each market filter and sort walks one of these (migration 0034_market_search).
    index('listings_market_make_idx').on(t.searchMake, t.id).where(sql`${t.active}`),
    index('listings_market_model_idx').on(t.searchModel, t.id).where(sql`${t.active}`),
    index('listings_market_fuel_idx').on(t.searchFuel, t.id).where(sql`${t.active}`),
    index('listings_market_fuel2_idx')
      .on(t.searchFuel2, t.id)
      .where(sql`${t.active} and ${t.searchFuel2} is not null`),
    index('listings_market_year_idx').on(t.searchYear, t.id).where(sql`${t.active}`),
    index('listings_market_km_idx').on(t.searchOdometer, t.id).where(sql`${t.active}`),
    index('listings_market_price_idx').on(t.priceEur, t.id).where(sql`${t.active}`),
    index('listings_market_rating_idx').on(t.ratingRank, sql`(-${t.id})`).where(sql`${t.active}`),
    index('listings_active_idx').on(t.active, t.id),
    index('listings_seller_idx').on(t.sellerId),
    index('listings_buyer_idx').on(t.buyerId),
    // "Is this file a listing photo?" on every market photo request: without it, a scan of all listings.
    index('listings_photo_ids_idx').using('gin', t.photoIds),
  ],
);

/** A buyer's interest in a listing: one conversation per (listing, buyer). */
export const interests = pgTable(
  'interests',
  {
    id: serial('id').primaryKey(),
    listingId: integer('listing_id')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    buyerId: integer('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * The listing's seller, kept on the row for the seller's inbox (migration 0037): set on insert by
     * a trigger from the listing (a listing's seller never changes).
     */
    sellerId: integer('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A party that deleted the conversation stops seeing it until a new message arrives. */
    hiddenForBuyer: boolean('hidden_for_buyer').notNull().default(false),
    hiddenForSeller: boolean('hidden_for_seller').notNull().default(false),
    buyerReadId: integer('buyer_read_id').notNull().default(0),
    sellerReadId: integer('seller_read_id').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('interests_listing_buyer_idx').on(t.listingId, t.buyerId),
    // Each side of the inbox in its order, a page at a time (migration 0037).
    index('interests_buyer_keyset_idx').on(t.buyerId, t.updatedAt, t.id),
    index('interests_seller_keyset_idx').on(t.sellerId, t.updatedAt, t.id),
  ],
);

export const marketMessages = pgTable(
  'market_messages',
  {
    id: serial('id').primaryKey(),
    interestId: integer('interest_id')
      .notNull()
      .references(() => interests.id, { onDelete: 'cascade' }),
    senderId: integer('sender_id').references(() => users.id, { onDelete: 'set null' }),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('market_messages_interest_idx').on(t.interestId, t.id),
    index('market_messages_sender_idx').on(t.senderId),
  ],
);

/**
 * What each vehicle's records prove, for the marketplace cards: kept by statement triggers on the
 * four record tables (migration 0007_vehicle_history), so listing 10,000 cars reads one row each.
 * No foreign key, like vehicle_month_costs: record triggers still write while a vehicle's delete
 * cascades; a leftover row of a deleted vehicle is never joined.
 */
export const vehicleHistory = pgTable('vehicle_history', {
  vehicleId: integer('vehicle_id').primaryKey(),
  services: integer('services').notNull().default(0),
  lastServiceDate: date('last_service_date'),
  lastServiceKm: integer('last_service_km'),
  recordsSince: date('records_since'),
  fuelEntries: integer('fuel_entries').notNull().default(0),
  consumption: numeric('consumption', { precision: 8, scale: 2, mode: 'number' }),
  /** The sum and the count of the fills' consumption figures: an insert adds to them (migration 0042). */
  consumptionSum: numeric('consumption_sum', { mode: 'number' }).notNull().default(0),
  consumptionFills: integer('consumption_fills').notNull().default(0),
});

/**
 * Read-only share links to a vehicle's history report (`/r/{token}`): the token is 32 random bytes
 * (base64url). A link made for a listing carries its id and is revoked with it (deleted listing,
 * transferred car).
 */
export const reportLinks = pgTable(
  'report_links',
  {
    id: serial('id').primaryKey(),
    token: text('token').notNull(),
    vehicleId: vehicleRef(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    listingId: integer('listing_id').references(() => listings.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('report_links_token_idx').on(t.token),
    index('report_links_vehicle_idx').on(t.vehicleId),
    index('report_links_created_by_idx').on(t.createdBy),
    index('report_links_listing_idx').on(t.listingId),
  ],
);

/**
 * One row per generated report: the facts its verification code vouches for. No foreign key: a
 * printed report stays verifiable after the car is deleted or sold.
 */
export const reportCodes = pgTable(
  'report_codes',
  {
    code: text('code').primaryKey(),
    vehicleId: integer('vehicle_id').notNull(),
    make: text('make').notNull(),
    model: text('model').notNull(),
    year: integer('year').notNull(),
    registrationNumber: text('registration_number').notNull(),
    odometer: integer('odometer').notNull(),
    generatedAt: timestamp('generated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('report_codes_vehicle_idx').on(t.vehicleId)],
);

/**
 * The server's VAPID key pair for Web Push: one row (id 1), made by the first process that starts;
 * the others read it, so every replica signs with the same key.
 */
export const vapidKeys = pgTable('vapid_keys', {
  id: integer('id').primaryKey(),
  publicKey: text('public_key').notNull(),
  privateKey: text('private_key').notNull(),
  createdAt: createdAt(),
});

/**
 * A device's Web Push subscription. The same endpoint is one subscription (the latest user and
 * session to register it own it); it goes when the session it was made under ends (logout).
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userAgent: text('user_agent').notNull().default(''),
    /** The login (refresh-token family) it was made under: logout of that session removes it. */
    familyId: uuid('family_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_idx').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
    index('push_subscriptions_family_idx').on(t.familyId),
  ],
);

/**
 * Pushes to send, written in the same transaction as their notification; a worker sends them
 * (FOR UPDATE SKIP LOCKED, so several replicas send each once) and retries 429/5xx with backoff.
 */
export const pushOutbox = pgTable(
  'push_outbox',
  {
    id: serial('id').primaryKey(),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    /** {title, body, url}, in the user's language. */
    payload: jsonb('payload').$type<{ title: string; body: string; url: string }>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    index('push_outbox_next_idx').on(t.nextAttemptAt),
    index('push_outbox_subscription_idx').on(t.subscriptionId),
  ],
);

/**
 * Daily reference exchange rates (issue 50): `rate` units of `currency` for one `base` (EUR, as the
 * ECB publishes them; other pairs cross through it), per day and source. The ECB job upserts the
 * published rates (source ECB); MANUAL rows fill what the ECB does not publish (MDL). A day with no
 * row (weekend, holiday) takes the previous business day's (the domain's euroRateOn).
 */
export const fxRates = pgTable(
  'fx_rates',
  {
    base: text('base').notNull().default('EUR'),
    currency: text('currency').notNull(),
    date: date('date').notNull(),
    rate: numeric('rate', { precision: 18, scale: 8, mode: 'number' }).notNull(),
    source: text('source').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Also the lookup's index: one currency's rates over the days before a date.
    primaryKey({ columns: [t.base, t.currency, t.date, t.source] }),
    check('fx_rates_codes_check', sql`${t.base} ~ '^[A-Z]{3}$' and ${t.currency} ~ '^[A-Z]{3}$'`),
    check('fx_rates_rate_check', sql`${t.rate} > 0`),
    check('fx_rates_source_check', sql`${t.source} in ('ECB', 'MANUAL')`),
  ],
);

/**
 * A vehicle's papers (issue 52, migration 0031_vehicle_documents): pages in `files` (their bytes in
 * the FileStore) listed in `vehicle_document_pages`. An expiry date makes a renewal (`renewal_id`):
 * its reminders, push and calendar entry are the renewal's. `private` ones stay with the seller on a
 * marketplace sale (they are deleted with the hand-over).
 */
export const vehicleDocuments = pgTable(
  'vehicle_documents',
  {
    id: serial('id').primaryKey(),
    vehicleId: vehicleRef(),
    type: text('type', { enum: DOCUMENT_TYPES }).notNull(),
    title: text('title').notNull(),
    number: text('number'),
    issuedOn: date('issued_on'),
    expiresOn: date('expires_on'),
    notes: text('notes').notNull().default(''),
    private: boolean('private').notNull().default(false),
    renewalId: integer('renewal_id').references(() => renewals.id, { onDelete: 'set null' }),
    /** A small JPEG of the first page for lists; null for a PDF. */
    previewFileId: text('preview_file_id').references(() => files.id, { onDelete: 'set null' }),
    /** Bytes stored for the pages and the preview (the owner's quota counts them). */
    size: integer('size').notNull().default(0),
    version: integer('version').notNull().default(0),
    createdById: createdBy(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('vehicle_documents_vehicle_idx').on(t.vehicleId, t.type, t.id),
    // The list's order, newest first, a page at a time (migration 0037).
    index('vehicle_documents_vehicle_keyset_idx').on(t.vehicleId, t.id),
    index('vehicle_documents_renewal_idx').on(t.renewalId),
    index('vehicle_documents_preview_idx').on(t.previewFileId),
    index('vehicle_documents_created_by_idx').on(t.createdById),
    check(
      'vehicle_documents_type_check',
      sql`${t.type} in ('REGISTRATION', 'TECHNICAL_CARD', 'MTPL_INSURANCE', 'CASCO', 'INSPECTION', 'VIGNETTE', 'ENV_LABEL', 'PURCHASE_CONTRACT', 'INVOICE', 'WARRANTY', 'OTHER')`,
    ),
  ],
);

/** A document's pages, in order (1-based): the stored file and the name it was uploaded under. */
export const vehicleDocumentPages = pgTable(
  'vehicle_document_pages',
  {
    documentId: integer('document_id')
      .notNull()
      .references(() => vehicleDocuments.id, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.page] }),
    index('vehicle_document_pages_file_idx').on(t.fileId),
  ],
);

/**
 * Personal API tokens (issue 53): `Authorization: Bearer evd_…` acts as the user with the token's
 * scope. Only the SHA-256 of the token is kept; `hint` is its first characters, to tell tokens apart.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scope: text('scope', { enum: ['read', 'read-write'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    hint: text('hint').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastUsedIp: text('last_used_ip'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('api_tokens_hash_idx').on(t.tokenHash),
    index('api_tokens_user_idx').on(t.userId),
    check('api_tokens_scope_check', sql`${t.scope} in ('read', 'read-write')`),
  ],
);

/** A user's webhook subscription (issue 53): an https URL, the events it wants, its signing secret. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    /** Record kinds the record.* events are limited to; null: every kind. */
    kinds: jsonb('kinds').$type<string[] | null>(),
    secret: text('secret').notNull(),
    /** Set after failing for 3 days: nothing is queued or sent until the user resumes it. */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    /** The first failure since the last success. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('webhooks_user_idx').on(t.userId)],
);

/**
 * The webhook outbox and its history: one row per (event, subscription), written in the transaction
 * that made the event; sent in id order per subscription (FOR UPDATE SKIP LOCKED, one replica each).
 * The last 50 finished rows of a subscription are kept.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    /** The idempotency id (X-Evdra-Delivery), the same on every attempt and on a re-send. */
    eventId: uuid('event_id').notNull(),
    event: text('event').notNull(),
    /** The exact JSON body, signed anew at each attempt. */
    body: text('body').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    responseStatus: integer('response_status'),
    error: text('error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.id),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    check('webhook_deliveries_status_check', sql`${t.status} in ('pending', 'delivered', 'failed')`),
  ],
);

/** Sign in with OpenID Connect (issue 53): a provider's account, linked on (issuer, subject). */
export const oidcIdentities = pgTable(
  'oidc_identities',
  {
    id: serial('id').primaryKey(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** What the provider said last (informative: never used to link). */
    email: text('email'),
    createdAt: createdAt(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('oidc_identities_issuer_subject_idx').on(t.issuer, t.subject),
    index('oidc_identities_user_idx').on(t.userId),
  ],
);

/** A sign-in under way: its state (hashed), nonce and PKCE verifier, used once by the callback. */
export const oidcLoginStates = pgTable(
  'oidc_login_states',
  {
    stateHash: text('state_hash').primaryKey(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('oidc_login_states_created_idx').on(t.createdAt)],
);

/** The ID token of a login made through the provider (RP-initiated logout's id_token_hint). */
export const oidcSessions = pgTable(
  'oidc_sessions',
  {
    familyId: uuid('family_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    idToken: text('id_token').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('oidc_sessions_user_idx').on(t.userId), index('oidc_sessions_created_idx').on(t.createdAt)],
);
