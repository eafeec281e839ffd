/**
 * An iCalendar (RFC 5545) event for a ticket: the departure as a wall-clock
 * time in Asia/Dhaka (DTSTART;TZID=Asia/Dhaka with its VTIMEZONE), so calendar
 * apps show the bus time whatever zone the phone is in.
 */
import { dhakaFields, type DateInput } from './dates.ts'

/** What goes into the calendar event. */
export interface IcsEvent {
  /** Globally unique id (stable for the same ticket, so re-adding updates it). */
  uid: string
  start: DateInput
  end: DateInput
  summary: string
  location?: string
  description?: string
  /** Creation stamp (defaults to now). */
  stamp?: DateInput
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/** 20261122T083000: wall-clock time in Dhaka. */
export function dhakaLocal(input: DateInput): string {
  const f = dhakaFields(input)
  return `${pad(f.year, 4)}${pad(f.month)}${pad(f.day)}T${pad(f.hour)}${pad(f.minute)}00`
}

/** 20261122T023000Z: the UTC instant. */
export function utcStamp(input: DateInput): string {
  const d = input instanceof Date ? input : new Date(input)
  return d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
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
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Nodi Express//Bus ticket//EN',
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
