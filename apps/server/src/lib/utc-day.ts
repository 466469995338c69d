const DAY_MS = 86_400_000;

/**
 * A function from a time (ms since the epoch) to its UTC date, YYYY-MM-DD, that writes the date once
 * per day and hands the same text back until the time leaves that day (either way: test clocks go
 * back). Date#toISOString on every answer was a visible share of a small AI summary's CPU.
 */
export function utcDays(): (t: number) => string {
  let from = 0;
  let until = 0;
  let text = '';
  return (t) => {
    if (t < from || t >= until) {
      from = Math.floor(t / DAY_MS) * DAY_MS;
      until = from + DAY_MS;
      text = new Date(from).toISOString().slice(0, 10);
    }
    return text;
  };
}
