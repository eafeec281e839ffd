import type { Reservation } from '../../contract/schemas.ts'
import { buildIcs } from '../../contract/ics.ts'

/** Saves the ticket's departure as an .ics file (time in Asia/Dhaka). */
export async function downloadCalendar(r: Reservation, summary: string, description: string): Promise<void> {
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
