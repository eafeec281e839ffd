import type { BodyOf } from '../../contract/api.ts'

/** The trip a seat-page address names, read by the page and by the shell's early request. */
export interface TripRef {
  tripId: number
  originCode: string
  destinationCode: string
  /** The trip's date, for the live seat map's stream and the back link; not sent with tripDetails. */
  tripDate?: string
  /** A round trip's return leg: the booked outbound it returns from (`outbound` in the URL), kept as long as these seats. */
  outbound?: number
}

/** The trip a URL names: `/reservation?tripId=…&from=…&to=…&date=…`, or null. */
export function tripRefFromQuery(query: string): TripRef | null {
  const q = new URLSearchParams(query)
  const tripId = Number(q.get('tripId'))
  const from = q.get('from') ?? ''
  const to = q.get('to') ?? ''
  if (!Number.isInteger(tripId) || tripId <= 0 || !/^[A-Z]{3}$/.test(from) || !/^[A-Z]{3}$/.test(to)) return null
  const date = q.get('date') ?? undefined
  const outbound = Number(q.get('outbound'))
  return {
    tripId,
    originCode: from,
    destinationCode: to,
    tripDate: date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : undefined,
    ...(Number.isInteger(outbound) && outbound > 0 ? { outbound } : {}),
  }
}

/** The trip-details request for `ref` (contract tripDetailsRequest), with the boarding and dropping counters chosen so far. */
export function tripDetailsBody(ref: TripRef, originBusStationId: number | null, destinationBusStationId: number | null): BodyOf<'tripDetails'> {
  return { tripId: ref.tripId, originCode: ref.originCode, destinationCode: ref.destinationCode, originBusStationId, destinationBusStationId }
}
