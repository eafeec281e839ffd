/**
 * Reservations in the contract shape (`Reservation`: a booking or a ticket), the one
 * mapper every route answers with: trip, cities, stations with their reporting times,
 * seats, fare, and the booking or ticket times.
 */
import { cancelReasons, type CoachType, type Reservation, reservationStatus, type SeatType } from '../../contract/schemas.ts'
import type { ReservationRow } from './bookings.ts'
import type { Queryable } from '../db/db.ts'
import { AppError } from '../core.ts'
import { stationTime, type TripCityColumns } from '../trips/lookups.ts'
import { dhakaIsoOrNull, toDhakaIso } from '../lib/time.ts'
import { refundInfos } from './refunds.ts'
import { roundTripLegs } from './round-trips.ts'

interface JoinedRow extends ReservationRow, TripCityColumns {
  trip_date: string
  coach_code: string
  coach_type: CoachType
  layout_name: string
  departure_at: Date
  arrival_at: Date
  b_id: number
  b_name: string
  b_city: string
  b_address: string
  b_phone: string
  b_offset: number
  e_id: number
  e_name: string
  e_city: string
  e_address: string
  e_phone: string
  e_offset: number
  cancel_reason: string | null
  operator_reason: string | null
  operator_reason_bn: string | null
  m_coach_code: string | null
  m_departure_at: Date | null
  paid_with: Reservation['paidWith']
}

/** Loads reservations in the contract shape, in the order of `ids` (missing ids are skipped). */
export async function loadReservations(q: Queryable, ids: number[]): Promise<Reservation[]> {
  if (ids.length === 0) return []
  const rows = await q.query<JoinedRow>(
    `SELECT x.*, t.trip_date::text AS trip_date, t.coach_code, l.coach_type, l.name AS layout_name, t.departure_at, t.arrival_at,
            o.code AS o_code, o.name AS o_name, o.name_bn AS o_name_bn,
            d.code AS d_code, d.name AS d_name, d.name_bn AS d_name_bn,
            b.id AS b_id, b.name AS b_name, b.city_code AS b_city, b.address AS b_address, b.phone AS b_phone, b.offset_minutes AS b_offset,
            e.id AS e_id, e.name AS e_name, e.city_code AS e_city, e.address AS e_address, e.phone AS e_phone, e.offset_minutes AS e_offset,
            m.coach_code AS m_coach_code, m.departure_at AS m_departure_at,
            (SELECT coalesce(p.paid_with, 'card') FROM payments p
              WHERE (p.reservation_id = x.id OR p.return_reservation_id = x.id) AND p.status = 'APPROVED' AND p.confirmed_at IS NOT NULL
              ORDER BY p.confirmed_at DESC LIMIT 1) AS paid_with
       FROM reservations x
       JOIN trips t ON t.id = x.trip_id
       JOIN routes r ON r.id = t.route_id
       JOIN layouts l ON l.id = t.layout_id
       JOIN cities o ON o.code = r.origin_code
       JOIN cities d ON d.code = r.destination_code
       JOIN bus_stations b ON b.id = x.boarding_station_id
       JOIN bus_stations e ON e.id = x.dropping_station_id
       LEFT JOIN trips m ON m.id = x.moved_from_trip_id
      WHERE x.id = ANY($1::int[])`,
    [ids],
  )
  // the seats on the reservation's trip: a ticket the operator moved keeps its old trip's seats, inactive, beside the new ones
  const seats = await q.query<{ reservation_id: number; seat_name: string; seat_type: SeatType; fare: number; canceled: boolean }>(
    `SELECT rs.reservation_id, rs.seat_name, rs.seat_type, rs.fare, rs.canceled_at IS NOT NULL AS canceled FROM reservation_seats rs
       JOIN reservations x ON x.id = rs.reservation_id AND x.trip_id = rs.trip_id
      WHERE rs.reservation_id = ANY($1::int[]) ORDER BY rs.id`,
    [ids],
  )
  const byId = new Map(rows.map((r) => [r.id, r]))
  const refunds = await refundInfos(q, rows)
  const legs = await roundTripLegs(q, ids)
  return ids.flatMap((rid) => {
    const r = byId.get(rid)
    if (!r) return []
    const own = seats.filter((s) => s.reservation_id === rid)
    const shape = (x: (typeof own)[number]) => ({ name: x.seat_name, seatType: x.seat_type, fare: x.fare })
    const canceledSeats = own.filter((x) => x.canceled).map(shape)
    return [
      {
        ...toReservation(r, own.filter((x) => !x.canceled).map(shape)),
        ...(canceledSeats.length > 0 ? { canceledSeats } : {}),
        refund: refunds.get(rid) ?? null,
        ...(legs.has(rid) ? { roundTrip: legs.get(rid) } : {}),
      },
    ]
  })
}

/** Loads one reservation in the contract shape, or null. */
export async function loadReservation(q: Queryable, id: number): Promise<Reservation | null> {
  return (await loadReservations(q, [id]))[0] ?? null
}

/** Like loadReservation, throwing RESERVATION_NOT_FOUND when absent. */
export async function mustLoadReservation(q: Queryable, id: number): Promise<Reservation> {
  const r = await loadReservation(q, id)
  if (!r) throw new AppError('RESERVATION_NOT_FOUND')
  return r
}

function toReservation(r: JoinedRow, seats: Reservation['seats']): Reservation {
  return {
    id: r.id,
    status: r.status,
    pnr: r.pnr,
    pin: r.pin,
    tripId: r.trip_id,
    tripDate: r.trip_date,
    coach: { code: r.coach_code, type: r.coach_type, name: r.layout_name },
    origin: { code: r.o_code, name: r.o_name, nameBn: r.o_name_bn },
    destination: { code: r.d_code, name: r.d_name, nameBn: r.d_name_bn },
    departureTime: toDhakaIso(r.departure_at),
    arrivalTime: toDhakaIso(r.arrival_at),
    boardingStation: {
      id: r.b_id,
      name: r.b_name,
      cityCode: r.b_city,
      address: r.b_address,
      phone: r.b_phone,
      time: stationTime(r.departure_at, r.b_offset ?? 0),
    },
    droppingStation: {
      id: r.e_id,
      name: r.e_name,
      cityCode: r.e_city,
      address: r.e_address,
      phone: r.e_phone,
      time: stationTime(r.arrival_at, r.e_offset ?? 0),
    },
    seats,
    passengerName: r.passenger_name,
    passengerMobile: r.passenger_mobile,
    passengerEmail: r.passenger_email,
    fare: { subtotal: r.subtotal, discount: r.discount, total: r.total, couponCode: r.coupon_code },
    expirationTime: r.status === reservationStatus.booked ? dhakaIsoOrNull(r.expiration_time) : null,
    maxExpirationTime: r.status === reservationStatus.booked ? dhakaIsoOrNull(r.max_expiration_time) : null,
    paymentMethod: r.payment_method,
    paidWith: r.paid_with ?? null,
    paidAt: dhakaIsoOrNull(r.paid_at),
    canceledAt: dhakaIsoOrNull(r.canceled_at),
    refundAmount: r.refund_amount,
    cancelReason: (cancelReasons as readonly string[]).includes(r.cancel_reason ?? '') ? (r.cancel_reason as Reservation['cancelReason']) : null,
    operatorReason: r.cancel_reason === 'TRIP_CANCELED' ? r.operator_reason : null,
    operatorReasonBn: r.cancel_reason === 'TRIP_CANCELED' ? r.operator_reason_bn : null,
    movedFrom: r.m_coach_code && r.m_departure_at ? { coachCode: r.m_coach_code, departureTime: toDhakaIso(r.m_departure_at) } : null,
    createdAt: toDhakaIso(r.created_at),
  }
}
