export * from './ai.js';
export * from './analytics.js';
export * from './auth.js';
export * from './common.js';
// Without zod: constants a first screen needs.
export * from './constants.js';
// Without zod: document types and their names per country.
export * from './document-types.js';
export * from './documents.js';
export * from './engine-size.js';
export * from './enums.js';
export * from './errors.js';
export * from './fuel.js';
// Without zod: exchange-rate rules.
export * from './fx.js';
export * from './health.js';
export * from './import.js';
export * from './integrations.js';
export * from './marketplace.js';
// Without zod: money rounding and formatting.
export * from './money.js';
export * from './money-schemas.js';
export * from './notification.js';
// Without zod: the web app's first screen (the bell) needs the paths, not the schemas.
export * from './notification-path.js';
export * from './ocr.js';
export * from './paging.js';
// Without zod: a reader's currency and units by country.
export * from './preferences.js';
export * from './reach.js';
export * from './records.js';
export * from './renewals.js';
export * from './report.js';
export * from './sharing.js';
// Without zod: metric <-> reader's units, and their formatting.
export * from './units.js';
export * from './user.js';
export * from './vehicle.js';
