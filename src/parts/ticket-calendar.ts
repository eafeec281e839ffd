import type { Reservation } from '../../contract/schemas.ts'
import { buildIcs } from '../../contract/ics.ts'
import { formatTime, localizeDigits, type Locale } from '../lib/dates.ts'

/**
 * Saves the ticket's departure as an .ics file (time in Asia/Dhaka), in the page's language
 * (`t` its messages) and digits, as the ticket shows it (src/parts/ticket-view.tsx).
 */
export async function downloadCalendar(
  r: Reservation,
  t: (id: string, values?: Record<string, string | number>) => string,
  lang: Locale,
): Promise<void> {
  const seats = r.seats.map((s) => s.name).join(', ')
  const city = (c: Reservation['origin']) => (lang === 'bn' ? c.nameBn : c.name)
  const summary = t('ticket.calendarSummary', { from: city(r.origin), to: city(r.destination), coach: r.coach.code, seats })
  const s = r.boardingStation
  const keys = r.pnr && r.pin ? t('ticket.calendarKeys', { pnr: r.pnr, pin: localizeDigits(r.pin, lang) }) : ''
  const description = [keys, s.time ? `${s.name}, ${formatTime(s.time, lang)}` : s.name].filter(Boolean).join('\n')
  const ics = buildIcs({
    uid: `reservation-${r.id}@nodiexpress.com.bd`,
    start: r.boardingStation.time ?? r.departureTime,
    end: r.droppingStation.time ?? r.arrivalTime,
    summary,
    location: [r.boardingStation.name, r.boardingStation.address].filter(Boolean).join(', '),
    description,
  })
  const url = URL.createObjectURL(new Blob([ics], { type: 'text/calendar;charset=utf-8' }))
  const a = document.createElement('a')
  a.href = url
  a.download = `ticket-${r.pnr ?? r.id}.ics`
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
