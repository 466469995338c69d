/**
 * The query key of a vehicle's renewals: the renewals feature reads them, and the documents feature
 * refreshes them when a paper with a renewal is saved (features do not import each other).
 */
export const renewalKeys = { of: (vehicleId: number) => ['renewals', vehicleId] as const };
