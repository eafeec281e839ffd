/**
 * Asia/Dhaka calendar helpers. Bangladesh has kept UTC+06:00 without daylight
 * saving since 2009, so plain arithmetic is exact for every date the app shows.
 */
const OFFSET_MS = 6 * 60 * 60 * 1000;

/** ISO-8601 instant with the Dhaka offset, e.g. `2026-11-22T08:30:00+06:00`. */
export function toDhakaIso(d: Date | string | number): string {
  const t = new Date(d).getTime();
  return new Date(t + OFFSET_MS).toISOString().slice(0, 19) + '+06:00';
}

/** The Dhaka calendar date (yyyy-mm-dd) of an instant. */
export function dhakaDate(d: Date | number = Date.now()): string {
  return new Date(new Date(d).getTime() + OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant a Dhaka calendar date begins (00:00 +06:00). */
export function dhakaDayStart(date: string): Date {
  return new Date(Date.parse(date + 'T00:00:00Z') - OFFSET_MS);
}

/** Adds whole days to a yyyy-mm-dd date. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(date + 'T00:00:00Z') + days * 86_400_000).toISOString().slice(0, 10);
}
