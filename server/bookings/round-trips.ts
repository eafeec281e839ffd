/**
 * Round trips: a return booking made against the caller's live outbound booking (bookings.ts
 * createBooking with `outboundReservationId`, checked by lockOutboundFor there), both paid by one payment (payments.ts) and sold as two
 * tickets, each with its own PNR and cancelled or changed alone. A return leg whose seats were lost
 * before payment (its hold ended, the operator cancelled its trip) is never paid for: the payment is
 * refused with RETURN_SEATS_LOST unless the passenger agrees to pay the outbound alone.
 */
import { reservationStatus, type RoundTripLeg } from '../../contract/schemas.ts'
import type { Queryable } from '../db/db.ts'
import { AppError } from '../core.ts'
import { assertNotUnderReview, bookingLive, type ReservationRow } from './bookings.ts'
import { dhakaIsoOrNull, toDhakaIso } from '../lib/time.ts'
import type { TripCityColumns } from '../trips/lookups.ts'

/**
 * Locks, for a payment of the caller's booking `id`, the bookings it pays (outbound first): the
 * booking, and for a round trip's outbound its live return booking too (unless `outboundOnly`). A
 * return leg lost before payment (hold ended, trip cancelled) is RETURN_SEATS_LOST unless the
 * passenger agreed (`outboundOnly`) to pay the outbound alone; one they cancelled or paid is left out.
 */
export async function lockPayableLegs(
  tx: Queryable,
  r: ReservationRow,
  now: Date,
  outboundOnly: boolean,
): Promise<[ReservationRow] | [ReservationRow, ReservationRow]> {
  const [ret] = await tx.query<ReservationRow>('SELECT * FROM reservations WHERE outbound_reservation_id = $1 ORDER BY id DESC LIMIT 1 FOR UPDATE', [
    r.id,
  ])
  if (!ret || outboundOnly) return [r]
  if (bookingLive(ret, now)) {
    await assertNotUnderReview(tx, ret.id)
    return [r, ret]
  }
  const lost = ret.status === reservationStatus.booked || (ret.status === reservationStatus.canceled && ret.cancel_reason !== 'BOOKING_CANCELED')
  if (lost) throw new AppError('RETURN_SEATS_LOST', { values: { returnReservationId: ret.id } })
  return [r]
}

interface LegRow extends TripCityColumns {
  self: number
  leg: RoundTripLeg['leg']
  id: number
  pnr: string | null
  status: number
  expiration_time: Date | null
  total: number
  trip_id: number
  trip_date: string
  departure_at: Date
  seats: string[]
}

/** Each round-trip leg among reservations `ids` with its other leg (an outbound's latest return booking), keyed by id. */
export async function roundTripLegs(q: Queryable, ids: number[]): Promise<Map<number, RoundTripLeg>> {
  const rows = await q.query<LegRow>(
    `SELECT s.id AS self, CASE WHEN s.outbound_reservation_id IS NULL THEN 'outbound' ELSE 'return' END AS leg,
            y.id, y.pnr, y.status, y.expiration_time, y.total, y.trip_id, t.trip_date::text AS trip_date, t.departure_at,
            o.code AS o_code, o.name AS o_name, o.name_bn AS o_name_bn, d.code AS d_code, d.name AS d_name, d.name_bn AS d_name_bn,
            ARRAY(SELECT rs.seat_name FROM reservation_seats rs
                   WHERE rs.reservation_id = y.id AND rs.trip_id = y.trip_id AND rs.canceled_at IS NULL ORDER BY rs.id) AS seats
       FROM reservations s
       JOIN LATERAL (SELECT * FROM reservations z
                      WHERE (s.outbound_reservation_id IS NOT NULL AND z.id = s.outbound_reservation_id)
                         OR (s.outbound_reservation_id IS NULL AND z.outbound_reservation_id = s.id)
                      ORDER BY z.id DESC LIMIT 1) y ON true
       JOIN trips t ON t.id = y.trip_id
       JOIN routes r ON r.id = t.route_id
       JOIN cities o ON o.code = r.origin_code
       JOIN cities d ON d.code = r.destination_code
      WHERE s.id = ANY($1::int[])`,
    [ids],
  )
  return new Map(
    rows.map((x): [number, RoundTripLeg] => [
      x.self,
      {
        leg: x.leg,
        other: {
          id: x.id,
          pnr: x.pnr,
          status: x.status,
          tripId: x.trip_id,
          tripDate: x.trip_date,
          departureTime: toDhakaIso(x.departure_at),
          origin: { code: x.o_code, name: x.o_name, nameBn: x.o_name_bn },
          destination: { code: x.d_code, name: x.d_name, nameBn: x.d_name_bn },
          seats: x.seats,
          total: x.total,
          expirationTime: x.status === reservationStatus.booked ? dhakaIsoOrNull(x.expiration_time) : null,
        },
      },
    ]),
  )
}
