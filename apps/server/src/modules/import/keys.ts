/** The keys that make a record a duplicate: date + odometer + amount (kinds without an odometer: date + amount). */
export const keyOf = {
  fuel: (r: { date: string; odometer: number | null; fuelPrice: number }) =>
    `${r.date}|${r.odometer ?? ''}|${Number(r.fuelPrice).toFixed(2)}`,
  expenses: (r: { date: string; amount: number }) => `${r.date}||${Number(r.amount).toFixed(2)}`,
  revisions: (r: { date: string; km: number; price: number }) =>
    `${r.date}|${r.km}|${Number(r.price).toFixed(2)}`,
  insurance: (r: { startDate: string; price: number }) => `${r.startDate}||${Number(r.price).toFixed(2)}`,
};
export type ExistingKeys = Record<keyof typeof keyOf, Set<string>>;
