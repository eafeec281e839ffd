/**
 * Asia/Dhaka calendar and clock arithmetic, by Temporal (temporal-polyfill): the Dhaka
 * date of an instant, the instant a Dhaka day begins, days added to a date or an
 * instant, time added to an instant, the time between two instants, and the one
 * instant format the API answers with.
 */
import { Temporal } from 'temporal-polyfill'

/** The operator's time zone: every date and time the app shows is Dhaka's. */
export const DHAKA = 'Asia/Dhaka'

const instantOf = (d: Date | string | number) => Temporal.Instant.fromEpochMilliseconds(new Date(d).getTime())
const dateOf = (i: Temporal.Instant | Temporal.ZonedDateTime) => new Date(i.epochMilliseconds)

// Bangladesh has kept UTC+06:00 without daylight saving since 2010. Every instant of
// every answer goes through toDhakaIso (trip and station times, each reservation's
// times), and the polyfill's time-zone lookup costs about 13 times the plain
// formatting (16 µs against 1.2 µs a call), so it shifts by the fixed offset;
// time.test.ts checks it against Temporal's Asia/Dhaka.
const DHAKA_OFFSET_MS = 6 * 60 * 60 * 1000

/** ISO-8601 instant with the Dhaka offset, to the second, e.g. `2026-11-22T08:30:00+06:00`. */
export function toDhakaIso(d: Date | string | number): string {
  return new Date(new Date(d).getTime() + DHAKA_OFFSET_MS).toISOString().slice(0, 19) + '+06:00'
}

/** Nullable variant of toDhakaIso. */
export function dhakaIsoOrNull(d: Date | null | undefined): string | null {
  return d ? toDhakaIso(d) : null
}

/**
 * The Dhaka calendar date (yyyy-mm-dd) of an instant. By the fixed offset, as toDhakaIso: every trip search
 * asks it, and Temporal's zoned date cost about 35 µs a call (940 ms of one server's CPU in the Eid bench's
 * sale); time.test.ts checks it against Temporal's Asia/Dhaka.
 */
export function dhakaDate(d: Date | number = Date.now()): string {
  return new Date(new Date(d).getTime() + DHAKA_OFFSET_MS).toISOString().slice(0, 10)
}

/** The instant a Dhaka calendar date begins. */
export function dhakaDayStart(date: string): Date {
  return dateOf(Temporal.PlainDate.from(date).toZonedDateTime(DHAKA))
}

/** Adds whole days (negative: subtracts) to a yyyy-mm-dd date. */
export function addDays(date: string, days: number): string {
  return Temporal.PlainDate.from(date).add({ days }).toString()
}

/** The instant `days` Dhaka calendar days after (negative: before) `d`, at the same wall-clock time. */
export function addDhakaDays(d: Date, days: number): Date {
  return dateOf(instantOf(d).toZonedDateTimeISO(DHAKA).add({ days }))
}

/**
 * The instant a duration after (negative values: before) `d`. Exact time, no calendar: the milliseconds
 * are added (Temporal.Instant.add does the same, at about 25 µs a call; every waiting-room poll adds one;
 * time.test.ts checks the two agree).
 */
export function addTime(d: Date, duration: { hours?: number; minutes?: number; seconds?: number; milliseconds?: number }): Date {
  const { hours = 0, minutes = 0, seconds = 0, milliseconds = 0 } = duration
  return new Date(d.getTime() + ((hours * 60 + minutes) * 60 + seconds) * 1000 + milliseconds)
}

/** The time from `from` to `to` in `unit`, exactly (a fraction; negative when `to` is earlier). */
export function timeBetween(from: Date, to: Date, unit: 'hours' | 'minutes' | 'seconds' | 'milliseconds'): number {
  return instantOf(from).until(instantOf(to)).total({ unit })
}

/** Every calendar day from `first` to `last` (yyyy-mm-dd) with its ISO weekday (1 Monday .. 7 Sunday). */
export function calendarDays(first: string, last: string): { dates: string[]; weekdays: number[] } {
  const dates: string[] = []
  const weekdays: number[] = []
  const end = Temporal.PlainDate.from(last)
  for (let d = Temporal.PlainDate.from(first); Temporal.PlainDate.compare(d, end) <= 0; d = d.add({ days: 1 })) {
    dates.push(d.toString())
    weekdays.push(d.dayOfWeek)
  }
  return { dates, weekdays }
}

/** An ISO-8601 instant with an offset or Z, or null. */
export function parseInstant(s: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(s)) return null
  const d = new Date(s)
  return Number.isNaN(d.getTime()) ? null : d
}
