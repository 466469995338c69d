import { type SQL, sql } from 'drizzle-orm';

// SQL fragments over fx_rates (issue 50), embedded by the repos that convert in SQL (facts, reports).

/**
 * Units of currency `c` for one euro at the latest reference rate on or before `day` (EUR: 1; null
 * when none is stored), as FxRepo.latestEuroRates reads it (an ECB rate before a MANUAL one that day).
 */
const perEuro = (c: SQL, day: SQL): SQL =>
  sql`(case when ${c} = 'EUR' then 1::numeric else (select x.rate from fx_rates x
        where x.base = 'EUR' and x.currency = ${c} and x.date <= ${day} and x.rate > 0
        order by x.date desc, x.source = 'ECB' desc limit 1) end)`;

/**
 * Units of `to` for one `from` at the latest reference rates on or before `day`, crossed through the
 * euro (what the analytics convert totals at: FxService.latestRatesTo): 1 for the same currency,
 * looked up only when they differ; null when either has no rate. For SQL that turns a record's amount
 * at its stored rate (in its rate_currency, its owner's currency when written) into the owner's
 * currency now, for an owner who has changed currency since (issue 50).
 */
export const latestRateSql = (from: SQL, to: SQL, day: SQL): SQL =>
  sql`(case when ${from} = ${to} then 1::numeric else ${perEuro(to, day)} / ${perEuro(from, day)} end)`;
