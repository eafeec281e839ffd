/**
 * The ticket's calendar file (iCalendar, RFC 5545), one format for the app's "add to
 * calendar" download and the ticket e-mail's attachment: the departure as a
 * wall-clock time in Asia/Dhaka (DTSTART;TZID=Asia/Dhaka with its VTIMEZONE), so
 * calendar apps show the bus time whatever zone the phone is in. The same `uid` for
 * the same ticket, so adding it twice updates one event.
 */
import { dhakaFields, pad } from './dhaka-dates.ts'

/** What goes into the calendar event. */
export interface IcsEvent {
  /** Globally unique id (stable for the same ticket, so re-adding updates it). */
  uid: string
  start: Date | number | string
  end: Date | number | string
  summary: string
  location?: string
  description?: string
  /** Creation stamp (defaults to now). */
  stamp?: Date | number | string
  /** PRODID's organisation (default Nodi Express). */
  producer?: string
}

const toDate = (v: Date | number | string) => (v instanceof Date ? v : new Date(v))

/** 20261122T083000: wall-clock time in Dhaka. */
export function dhakaLocal(input: Date | number | string): string {
  const f = dhakaFields(input)
  return `${pad(f.year, 4)}${pad(f.month)}${pad(f.day)}T${pad(f.hour)}${pad(f.minute)}00`
}

/** 20261122T023000Z: the UTC instant. */
export function utcStamp(input: Date | number | string): string {
  return toDate(input)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')
}

/** Escapes TEXT values: backslash, semicolon, comma and new lines. */
export function escapeText(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n')
}

/** Folds a content line at 75 octets (UTF-8), continuing with CRLF and a space, never inside a character. */
export function fold(line: string): string {
  const enc = new TextEncoder()
  const parts: string[] = []
  let current = ''
  let size = 0
  for (const ch of line) {
    const n = enc.encode(ch).length
    if (size + n > (parts.length ? 74 : 75)) {
      parts.push(current)
      current = ''
      size = 0
    }
    current += ch
    size += n
  }
  parts.push(current)
  return parts.join('\r\n ')
}

const VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Asia/Dhaka',
  'BEGIN:STANDARD',
  'DTSTART:19700101T000000',
  'TZOFFSETFROM:+0600',
  'TZOFFSETTO:+0600',
  'TZNAME:+06',
  'END:STANDARD',
  'END:VTIMEZONE',
]

/** The .ics file text (CRLF line ends). */
export function buildIcs(e: IcsEvent): string {
  const producer = (e.producer ?? 'Nodi Express').replace(/[/\r\n]/g, ' ')
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${producer}//Bus ticket//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    ...VTIMEZONE,
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    `DTSTAMP:${utcStamp(e.stamp ?? Date.now())}`,
    `DTSTART;TZID=Asia/Dhaka:${dhakaLocal(e.start)}`,
    `DTEND;TZID=Asia/Dhaka:${dhakaLocal(e.end)}`,
    `SUMMARY:${escapeText(e.summary)}`,
    ...(e.location ? [`LOCATION:${escapeText(e.location)}`] : []),
    ...(e.description ? [`DESCRIPTION:${escapeText(e.description)}`] : []),
    'BEGIN:VALARM',
    'TRIGGER:-PT2H',
    'ACTION:DISPLAY',
    `DESCRIPTION:${escapeText(e.summary)}`,
    'END:VALARM',
    'END:VEVENT',
    'END:VCALENDAR',
  ]
  return lines.map(fold).join('\r\n') + '\r\n'
}
