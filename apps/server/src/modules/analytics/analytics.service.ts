import type { AllTimeTotals, MonthlyAnalytics, YearlyAnalytics } from '@evdra/domain';
import { notFound } from '../../lib/errors.js';
import type { Principal } from '../auth/auth.service.js';
import type { VehicleAccess } from '../records/records.service.js';
import type { AnalyticsRepo } from './analytics.repo.js';

/** Cost analytics: per vehicle (monthly, yearly, all time), per user, and across everyone (admin). */
export class AnalyticsService {
  constructor(
    private readonly repo: AnalyticsRepo,
    private readonly access: VehicleAccess,
  ) {}

  /**
   * One vehicle's costs as JSON text (MonthlyAnalytics[], YearlyAnalytics or AllTimeTotals), with the
   * access check in the same statement (its owner or a share, or any for an admin); when it says no,
   * the access check tells a vehicle that is not there from one that is not theirs (404).
   */
  async vehicleJson(p: Principal, kind: 'monthly' | 'yearly' | 'total', vehicleId: number): Promise<string> {
    const json = await this.repo.vehicleJson(kind, vehicleId, p.role === 'ADMIN' ? null : p.userId);
    if (json !== undefined) return json;
    await this.access(p, vehicleId);
    throw notFound('Vehicle');
  }

  /**
   * One vehicle's months, yearly totals and all-time totals for a caller whose access to the vehicle
   * is already settled (the history report checks it itself, shared users included).
   */
  async vehicleCosts(vehicleId: number): Promise<{
    months: { month: string; fuel: number }[];
    yearly: YearlyAnalytics;
    total: AllTimeTotals;
  }> {
    const [monthly, yearly, total] = await Promise.all(
      (['monthly', 'yearly', 'total'] as const).map(async (kind) =>
        JSON.parse((await this.repo.vehicleJson(kind, vehicleId, null)) ?? 'null'),
      ),
    );
    if (!total) throw notFound('Vehicle');
    return {
      months: (monthly as MonthlyAnalytics[]).map((m) => ({ month: m.monthDate, fuel: m.totalFuelCost })),
      yearly,
      total,
    };
  }

  /**
   * The caller's vehicles (own and shared with them; `own`: only own), by vehicle and month, newest
   * first (AnalyticsRow[] as JSON text).
   */
  user(p: Principal, own = false): Promise<string> {
    return this.repo.rowsJson({ userId: p.userId, own });
  }

  /** Every vehicle of every owner between two months (YYYY-MM, both inclusive), as JSON text. */
  admin(range: { start?: string; end?: string }): Promise<string> {
    return this.repo.rowsJson({
      from: range.start && `${range.start}-01`,
      until: range.end && nextMonth(range.end),
    });
  }
}

/** First day of the month after 'YYYY-MM'. */
function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}
