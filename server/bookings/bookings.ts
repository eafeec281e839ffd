/**
 * Bookings: seats a passenger holds unpaid until an expiry (reservation status `booked`), and
 * every change to one before it is sold (tickets.ts): booking the caller's locked
 * seats, extending, cancelling, applying or removing a coupon, expiring. A change
 * declines the booking's pending card payment (its amount or purpose is stale); a card
 * payment held for review freezes the booking.
 */
import type { BodyOf } from '../../contract/api.ts'
import { MAX_SEATS, OPEN_SEAT_NAME, reservationStatus, type SeatType } from '../../contract/schemas.ts'
import { checkCouponRules, discountOf, findOffer } from './coupons.ts'
import type { Db, Queryable } from '../db/db.ts'
import type { Language } from '../delivery/ticket-messages.ts'
import { AppError, type Deps } from '../core.ts'
import { assertDateCap, lockDateCap } from './date-cap.ts'
import { assertStation } from '../trips/lookups.ts'
import { requireMobile } from '../account/passengers.ts'
import { addTime } from '../lib/time.ts'
import { assertOnSale, assertSaleOpen, findTrip, type TripRow } from '../trips/trips.ts'
import { holdEndedError, holdLimitError } from '../trips/seat-locks.ts'

/** A reservations row, a booking or a ticket (the columns the handlers read). */
export interface ReservationRow {
  id: number
  trip_id: number
  passenger_id: number | null
  status: number
  pnr: string | null
  pin: string | null
  passenger_name: string
  passenger_mobile: string
  passenger_email: string | null
  subtotal: number
  discount: number
  total: number
  coupon_code: string | null
  expiration_time: Date | null
  max_expiration_time: Date | null
  payment_method: 'CARD' | 'BALANCE' | null
  paid_at: Date | null
  canceled_at: Date | null
  refund_amount: number | null
  cancel_otp_hash: string | null
  cancel_otp_expires_at: Date | null
  created_at: Date
  /** The language the passenger booked in (ticket messages are written in it). */
  language: 'en' | 'bn'
  /** The client address key (http/limits.ts addressKey) the booking was made from; '' for bookings made before it was recorded. */
  address: string
  /** A round trip's return leg: the outbound booking it returns from (round-trips.ts); else null. */
  outbound_reservation_id: number | null
  cancel_reason: string | null
}

/**
 * The caller's reservation row: RESERVATION_NOT_FOUND when absent, RESERVATION_NOT_ACCESSIBLE
 * when another passenger's. With `forUpdate` the row is locked (use inside a transaction).
 */
export async function ownReservation(q: Queryable, id: number, passengerId: number, forUpdate = false): Promise<ReservationRow> {
  const rows = await q.query<ReservationRow>(`SELECT * FROM reservations WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id])
  const r = rows[0]
  if (!r) throw new AppError('RESERVATION_NOT_FOUND')
  if (r.passenger_id !== passengerId) throw new AppError('RESERVATION_NOT_ACCESSIBLE')
  return r
}

/**
 * "A booking is still live": booked (unpaid) and its hold not ended at `now`. The one TypeScript
 * spelling of the rule; SQL says it with `booking_live(status, expiration_time, now)` (db/functions/booking_live.sql).
 */
export function bookingLive(r: { status: number; expiration_time: Date | null }, now: Date): boolean {
  return r.status === reservationStatus.booked && !!r.expiration_time && r.expiration_time.getTime() > now.getTime()
}

/** Throws BOOKING_NOT_FOUND unless the row is a booking that has not expired at `now`. */
export function assertLiveBooking(r: ReservationRow, now: Date): void {
  if (r.status === reservationStatus.sold) throw new AppError('PAYMENT_ALREADY_COMPLETED')
  if (!bookingLive(r, now)) throw new AppError('BOOKING_NOT_FOUND')
}

/** Throws PAYMENT_UNDER_REVIEW when a card payment of the booking (or of its round trip) is held for review (it may still be accepted for the booking as it is). */
export async function assertNotUnderReview(tx: Queryable, reservationId: number): Promise<void> {
  const rows = await tx.query("SELECT 1 FROM payments WHERE (reservation_id = $1 OR return_reservation_id = $1) AND status = 'REVIEW' LIMIT 1", [
    reservationId,
  ])
  if (rows.length > 0) throw new AppError('PAYMENT_UNDER_REVIEW')
}

/** Declines the booking's pending card payment, its round trip's too (its amount is stale or the booking is settled). */
export async function declinePending(tx: Queryable, reservationId: number, now: Date): Promise<void> {
  await tx.query(
    "UPDATE payments SET status = 'DECLINED', decided_at = $2, decline_reason = 'replaced: the booking changed or was paid another way' WHERE (reservation_id = $1 OR return_reservation_id = $1) AND status = 'PENDING'",
    [reservationId, now],
  )
}

/**
 * Locks the caller's booking for a change or a payment (inside a transaction): its
 * row, checked to be the caller's, live at `now`, and without a payment under review.
 */
export async function lockChangeableBooking(tx: Queryable, id: number, passengerId: number, now: Date): Promise<ReservationRow> {
  const r = await ownReservation(tx, id, passengerId, true)
  assertLiveBooking(r, now)
  await assertNotUnderReview(tx, r.id)
  return r
}

/** Seats of the passenger's unpaid, unexpired bookings on the trip. */
export async function bookedUnpaidCount(q: Queryable, tripId: number, passengerId: number | null, now: Date): Promise<number> {
  if (passengerId == null) return 0
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
      WHERE rs.trip_id = $1 AND rs.active AND x.passenger_id = $2 AND booking_live(x.status, x.expiration_time, $3)`,
    [tripId, passengerId, now],
  )
  return Number(rows[0]?.n ?? 0)
}

/** What a booking is made of: the request (trip, seats, stations, traveller), and who asks. */
export interface BookingRequest extends BodyOf<'booking'> {
  passengerId: number
  /** The caller's lock holders (seat-locks.ts holdersOf): only seats they hold can be booked. */
  holders: string[]
  language: Language
  /** The client address key (http/limits.ts addressKey): the booking's seats count toward its hold limits. */
  address: string
  now: Date
}

/**
 * Books the seats the caller holds: spends their locks and creates the booking, expiring
 * HOLD_MINUTES from now (at most MAX_HOLD_MINUTES after extensions, never after
 * departure). Answers its id. TRIP_NOT_FOUND, trip sale errors (SALE_NOT_OPEN before its sale hour), BUS_STATION_NOT_FOUND,
 * SEAT_NOT_FOUND; SEAT_UNAVAILABLE when someone else holds or bought a seat,
 * BOOKING_TIME_EXCEED when the caller's hold ran out, SEAT_LIMIT_EXCEEDED past MAX_SEATS, or past
 * SEATS_PER_PASSENGER_PER_DATE for the trip's date (date-cap.ts, checked after the insert under the date's advisory locks).
 *
 * Unpaid bookings are holds too: the booking's seats count toward its
 * client address's hold limits (HOLD_LIMIT_EXCEEDED) and the passenger's unpaid seats
 * (SEAT_LIMIT_EXCEEDED past UNPAID_SEATS_PER_PASSENGER), checked after the insert under
 * the address's and the passenger's advisory locks, so two processes cannot overshoot.
 * A seat this passenger or address booked before ends no later than that first booking
 * (cancelling and booking again renews nothing); once it has ended, SEAT_HOLD_ENDED.
 * With `outboundReservationId` the booking is a round trip's return leg (lockOutboundFor; round-trips.ts),
 * paid together with that outbound booking; its pending card payment is declined (its amount grew).
 */
export async function createBooking(deps: Deps, req: BookingRequest): Promise<number> {
  const { now, holders, passengerId, address } = req
  const mobile = requireMobile(req.passengerMobile, 'passengerMobile')
  const trip = await findTrip(deps.db, req.tripId)
  if (!trip) throw new AppError('TRIP_NOT_FOUND')
  assertOnSale(trip, now)
  assertSaleOpen(trip, now)
  await assertStation(deps.db, req.boardingStationId, trip.origin_code, true)
  await assertStation(deps.db, req.droppingStationId, trip.destination_code, true)
  const names = [...new Set(req.seatNames)].sort()
  if (names.includes(OPEN_SEAT_NAME)) throw new AppError('SEAT_NOT_FOUND')
  const layout = await deps.db.query<{ name: string; seat_type: SeatType }>(
    'SELECT name, seat_type FROM layout_seats WHERE layout_id = $1 AND name = ANY($2::text[])',
    [trip.layout_id, names],
  )
  if (layout.length !== names.length) throw new AppError('SEAT_NOT_FOUND')
  const expiry = (minutes: number) => {
    const at = addTime(now, { minutes })
    return at.getTime() <= trip.departure_at.getTime() ? at : trip.departure_at
  }
  try {
    return await deps.db.transaction(async (tx) => {
      // The hold limits below count committed locks and bookings: one address's seat locks
      // and bookings, and one passenger's bookings, take their turn (in every process).
      await lockUnpaidLimits(tx, passengerId, address)
      await lockDateCap(tx, { passengerId, mobile, tripDate: trip.trip_date })
      const outboundId = req.outboundReservationId ?? null
      if (outboundId != null) {
        await lockOutboundFor(tx, outboundId, passengerId, trip, now)
        await declinePending(tx, outboundId, now)
      }
      // Claim the caller's own locks by deleting them: a lock can be spent once.
      const claimed = await tx.query<{ seat_name: string }>(
        'DELETE FROM seat_locks WHERE trip_id = $1 AND seat_name = ANY($2::text[]) AND holder = ANY($3::text[]) AND expires_at > $4 RETURNING seat_name',
        [trip.id, names, holders, now],
      )
      if (claimed.length !== names.length) {
        // Someone else holds or bought a seat: unavailable. Nobody does: the caller's hold ran out.
        const others = await tx.query(
          `SELECT 1 FROM seat_locks WHERE trip_id = $1 AND seat_name = ANY($2::text[]) AND expires_at > $3 AND NOT (holder = ANY($4::text[]))
           UNION ALL
           SELECT 1 FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
            WHERE rs.trip_id = $1 AND rs.seat_name = ANY($2::text[]) AND seat_taken(rs.active, x.status, x.expiration_time, $3)`,
          [trip.id, names, now, holders],
        )
        throw new AppError(others.length > 0 ? 'SEAT_UNAVAILABLE' : 'BOOKING_TIME_EXCEED')
      }
      if ((await bookedUnpaidCount(tx, trip.id, passengerId, now)) + names.length > MAX_SEATS) {
        throw new AppError('SEAT_LIMIT_EXCEEDED', {
          reason: `Seat limit exceeded. You can book at most ${MAX_SEATS} seats on a trip.`,
          values: { scope: 'trip', count: MAX_SEATS },
        })
      }
      // No renewal: a seat this passenger or address booked before ends when that booking would have.
      const [cap] = await tx.query<{ expires: Date | null; max: Date | null; ended: Date | null }>(
        `SELECT min(expires_at) AS expires, min(max_expires_at) AS max, max(keep_until) FILTER (WHERE expires_at <= $4) AS ended
           FROM first_holds WHERE trip_id = $1 AND seat_name = ANY($2::text[]) AND holder_key = ANY(hold_keys($3, $5)) AND keep_until > $4
            AND kind = 'booking'`,
        [trip.id, names, passengerId, now, address],
      )
      if (cap?.ended) throw holdEndedError((cap.ended.getTime() - now.getTime()) / 1000)
      const expiresAt = earlier(expiry(deps.config.holdMinutes), cap?.expires)
      const maxExpiresAt = earlier(expiry(deps.config.maxHoldMinutes), cap?.max)
      // Expired bookings still hold their seats in the unique index until swept.
      await expireBookings(tx, now, { tripId: trip.id })
      const fares = layout.map((s) => ({ name: s.name, type: s.seat_type, fare: trip.fares[s.seat_type] ?? 0 }))
      const subtotal = fares.reduce((a, s) => a + s.fare, 0)
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO reservations (trip_id, passenger_id, status, boarding_station_id, dropping_station_id, passenger_name, passenger_mobile,
                                   passenger_email, subtotal, discount, total, expiration_time, max_expiration_time, created_at, language, address,
                                   outbound_reservation_id)
         VALUES ($1, $2, 2, $3, $4, $5, $6, $7, $8, 0, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
        [
          trip.id,
          passengerId,
          req.boardingStationId,
          req.droppingStationId,
          req.passengerName,
          mobile,
          req.passengerEmail || null,
          subtotal,
          expiresAt,
          maxExpiresAt,
          now,
          req.language,
          address,
          outboundId,
        ],
      )
      await tx.query(
        `INSERT INTO reservation_seats (reservation_id, trip_id, seat_name, seat_type, fare)
         SELECT $1, $2, n, t, f FROM unnest($3::text[], $4::text[], $5::int[]) AS u(n, t, f)`,
        [row!.id, trip.id, fares.map((s) => s.name), fares.map((s) => s.type), fares.map((s) => s.fare)],
      )
      await assertUnpaidLimits(tx, deps.config, { tripId: trip.id, passengerId, address, now })
      await assertDateCap(tx, deps.config.seatsPerPassengerPerDate, { passengerId, mobile, tripDate: trip.trip_date, seats: names.length, now })
      // Remember this first hold of each seat (a live record stays: it is the cap this booking got),
      // kept until HOLD_MINUTES after the latest it could end.
      await rememberFirstHolds(tx, deps.config, { tripId: trip.id, passengerId, address, names, expiresAt, maxExpiresAt, now })
      return row!.id
    })
  } catch (err) {
    // The one-active-row index refused a seat another booking took meanwhile.
    if ((err as { code?: string }).code === '23505') throw new AppError('SEAT_UNAVAILABLE')
    throw err
  }
}

const badOutbound = (message: string) => new AppError('VALIDATION_FAILED', { fields: [{ path: 'outboundReservationId', message }] })

/**
 * Locks the caller's outbound booking `id` for a return booking on `trip` (inside the booking's
 * transaction): the caller's, live, not under review, itself no return leg, without a live or
 * sold return already, and `trip` goes back the other way after the outbound arrives.
 */
export async function lockOutboundFor(tx: Queryable, id: number, passengerId: number, trip: TripRow, now: Date): Promise<void> {
  const r = await ownReservation(tx, id, passengerId, true)
  assertLiveBooking(r, now)
  await assertNotUnderReview(tx, r.id)
  if (r.outbound_reservation_id != null) {
    throw badOutbound('This booking is itself a return trip')
  }
  const [out] = await tx.query<{ origin_code: string; destination_code: string; arrival_at: Date }>(
    'SELECT r.origin_code, r.destination_code, t.arrival_at FROM trips t JOIN routes r ON r.id = t.route_id WHERE t.id = $1',
    [r.trip_id],
  )
  if (!out || out.origin_code !== trip.destination_code || out.destination_code !== trip.origin_code) {
    throw badOutbound('The return trip must go back from the outbound trip’s destination to its origin')
  }
  if (trip.departure_at.getTime() <= out.arrival_at.getTime()) throw badOutbound('The return trip must leave after the outbound trip arrives')
  const other = await tx.query<ReservationRow>(
    `SELECT * FROM reservations WHERE outbound_reservation_id = $1 AND (status <> ${reservationStatus.booked} OR booking_live(status, expiration_time, $2))
        AND status <> ${reservationStatus.canceled}`,
    [r.id, now],
  )
  if (other.length > 0) throw badOutbound('This booking already has a return trip')
}

/** Takes the advisory locks under which the address's and the passenger's unpaid holds are counted (assertUnpaidLimits). */
export async function lockUnpaidLimits(tx: Queryable, passengerId: number, address: string): Promise<void> {
  if (address) await tx.query("SELECT 1 FROM pg_advisory_xact_lock(hashtext('seat-hold-address'), hashtext($1))", [address])
  await tx.query("SELECT 1 FROM pg_advisory_xact_lock(hashtext('unpaid-seats-passenger'), $1)", [passengerId])
}

/** Records a booking's first hold of seats `names` (kept HOLD_MINUTES past the latest it could end), unless a live record is there. */
export async function rememberFirstHolds(
  tx: Queryable,
  config: Deps['config'],
  h: { tripId: number; passengerId: number; address: string; names: string[]; expiresAt: Date; maxExpiresAt: Date; now: Date },
): Promise<void> {
  await tx.query(
    `INSERT INTO first_holds (holder_key, trip_id, seat_name, kind, expires_at, max_expires_at, keep_until)
     SELECT k, $1, n, 'booking', $4, $5, $6 FROM unnest(hold_keys($2, $3)) AS k CROSS JOIN unnest($7::text[]) AS n
     ON CONFLICT (trip_id, seat_name, holder_key, kind) DO UPDATE
       SET expires_at = EXCLUDED.expires_at, max_expires_at = EXCLUDED.max_expires_at, keep_until = EXCLUDED.keep_until
     WHERE first_holds.keep_until <= $8`,
    [h.tripId, h.passengerId, h.address, h.expiresAt, h.maxExpiresAt, addTime(h.maxExpiresAt, { minutes: config.holdMinutes }), h.names, h.now],
  )
}

/** The earlier of two instants (`b` absent: `a`). */
function earlier(a: Date, b: Date | null | undefined): Date {
  return b && b.getTime() < a.getTime() ? b : a
}

/**
 * Throws when, with the booking just written, the client address holds more seats (seat
 * locks plus unpaid bookings) than HOLD_LIMIT_PER_ADDRESS on the trip or
 * HOLD_LIMIT_PER_ADDRESS_TOTAL in all, or the passenger has more than
 * UNPAID_SEATS_PER_PASSENGER seats in unpaid bookings. Call under the advisory locks.
 */
export async function assertUnpaidLimits(
  tx: Queryable,
  config: Deps['config'],
  at: { tripId: number; passengerId: number; address: string; now: Date },
): Promise<void> {
  if (at.address) {
    for (const [scope, tripId, limit] of [
      ['trip', at.tripId, config.holdLimitPerAddress],
      ['total', null, config.holdLimitPerAddressTotal],
    ] as const) {
      const [h] = await tx.query<{ seats: number; first_end: Date | null }>('SELECT seats, first_end FROM address_holds($1, $2, $3)', [
        at.address,
        tripId,
        at.now,
      ])
      if (h && h.seats > limit) {
        const retry = h.first_end ? Math.ceil((h.first_end.getTime() - at.now.getTime()) / 1000) : null
        throw holdLimitError({ limit, scope, retry })
      }
    }
  }
  const [p] = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
      WHERE x.passenger_id = $1 AND booking_live(x.status, x.expiration_time, $2) AND rs.active`,
    [at.passengerId, at.now],
  )
  if (p && p.n > config.unpaidSeatsPerPassenger) {
    const limit = config.unpaidSeatsPerPassenger
    throw new AppError('SEAT_LIMIT_EXCEEDED', {
      reason: `You can have at most ${limit} unpaid seats on all trips together. Pay for or cancel a booking first.`,
      values: { scope: 'unpaid', count: limit },
    })
  }
}

/**
 * Moves the caller's live booking's expiry to `at`, which must be after `now` and no later than its max expiration.
 * A round trip's other leg, while live, is kept as long (never past its own max expiration): one extension keeps both.
 */
export async function extendBooking(db: Db, req: { id: number; passengerId: number; at: Date; now: Date }): Promise<void> {
  await db.transaction(async (tx) => {
    // Outbound before return, as a payment locks them (round-trips.ts lockPayableLegs): no deadlock between the two.
    await tx.query('SELECT 1 FROM reservations WHERE id = (SELECT outbound_reservation_id FROM reservations WHERE id = $1) FOR UPDATE', [req.id])
    const r = await ownReservation(tx, req.id, req.passengerId, true)
    assertLiveBooking(r, req.now)
    if (req.at.getTime() <= req.now.getTime() || !r.max_expiration_time || req.at.getTime() > r.max_expiration_time.getTime()) {
      throw new AppError('INVALID_EXPIRATION_TIME')
    }
    await keepBookingUntil(tx, r, req.at, req.now)
    const other = await otherLegFor(tx, r)
    if (other && bookingLive(other, req.now) && other.max_expiration_time) {
      const at = earlier(req.at, other.max_expiration_time)
      if (other.expiration_time && at.getTime() > other.expiration_time.getTime()) await keepBookingUntil(tx, other, at, req.now)
    }
  })
}

/**
 * Locks the caller's booked outbound `id` while the seats of its return leg are held before booking (before the seat
 * locks, in the order a booking of the return takes them) and answers how to keep it until an instant, never past its own
 * maximum. Another passenger's (or no passenger's) booking is refused; one no longer live has nothing to keep.
 */
export async function lockOutboundForHold(tx: Queryable, id: number, passengerId: number | null, now: Date): Promise<(at: Date) => Promise<void>> {
  if (passengerId == null) throw new AppError('RESERVATION_NOT_ACCESSIBLE')
  const r = await ownReservation(tx, id, passengerId, true)
  if (r.outbound_reservation_id != null) throw badOutbound('This booking is itself a return trip')
  return async (at) => {
    if (!bookingLive(r, now) || !r.max_expiration_time) return
    const until = earlier(at, r.max_expiration_time)
    if (until.getTime() > r.expiration_time!.getTime()) await keepBookingUntil(tx, r, until, now)
  }
}

/** Sets booking `r`'s expiry to `at`, and its seats' first hold's end with it. */
async function keepBookingUntil(tx: Queryable, r: ReservationRow, at: Date, now: Date): Promise<void> {
  await tx.query('UPDATE reservations SET expiration_time = $2 WHERE id = $1', [r.id, at])
  // The first hold of its seats lasts as long now: a booking of them again may end as late.
  await tx.query(
    `UPDATE first_holds h SET expires_at = greatest(h.expires_at, $2)
       FROM reservation_seats rs
      WHERE rs.reservation_id = $1 AND h.trip_id = rs.trip_id AND h.seat_name = rs.seat_name
        AND h.holder_key = ANY(hold_keys($3, $4)) AND h.keep_until > $5 AND h.kind = 'booking'`,
    [r.id, at, r.passenger_id, r.address, now],
  )
}

/** The other leg of round-trip booking `r`, locked: a return's outbound, an outbound's latest return booking (none: one way). */
async function otherLegFor(tx: Queryable, r: ReservationRow): Promise<ReservationRow | undefined> {
  const [other] = await tx.query<ReservationRow>(
    `SELECT * FROM reservations WHERE ($2::int IS NOT NULL AND id = $2) OR ($2::int IS NULL AND outbound_reservation_id = $1)
      ORDER BY id DESC LIMIT 1 FOR UPDATE`,
    [r.id, r.outbound_reservation_id],
  )
  return other
}

/** Cancels the caller's live booking and frees its seats. */
export async function cancelBooking(db: Db, req: { id: number; passengerId: number; now: Date }): Promise<void> {
  await db.transaction(async (tx) => {
    const r = await lockChangeableBooking(tx, req.id, req.passengerId, req.now)
    await tx.query(
      `UPDATE reservations SET status = ${reservationStatus.canceled}, canceled_at = $2, cancel_reason = 'BOOKING_CANCELED' WHERE id = $1`,
      [r.id, req.now],
    )
    await tx.query('UPDATE reservation_seats SET active = false WHERE reservation_id = $1', [r.id])
    // A pending card payment for a canceled booking must not be approvable any more.
    await declinePending(tx, r.id, req.now)
  })
}

/** Applies a coupon code (any case) to the caller's live booking, its rules checked (coupons.ts). */
export async function applyCoupon(db: Db, req: { id: number; passengerId: number; code: string; now: Date }): Promise<void> {
  await db.transaction(async (tx) => {
    const r = await lockChangeableBooking(tx, req.id, req.passengerId, req.now)
    const offer = await findOffer(tx, req.code, req.now)
    await checkCouponRules(tx, offer, { id: r.id, passengerId: r.passenger_id, subtotal: r.subtotal })
    await setCoupon(tx, r.id, { code: offer.coupon_code, discount: discountOf(offer, r.subtotal) })
    // A card payment opened for the old amount must not be approvable.
    await declinePending(tx, r.id, req.now)
  })
}

/** Removes the coupon of the caller's live booking (full fare again). */
export async function removeCoupon(db: Db, req: { id: number; passengerId: number; now: Date }): Promise<void> {
  await db.transaction(async (tx) => {
    const r = await lockChangeableBooking(tx, req.id, req.passengerId, req.now)
    await setCoupon(tx, r.id, null)
    await declinePending(tx, r.id, req.now)
  })
}

/** Sets the booking's coupon and discount (null: none, full fare); the total follows. */
export async function setCoupon(tx: Queryable, reservationId: number, coupon: { code: string; discount: number } | null): Promise<void> {
  await tx.query('UPDATE reservations SET coupon_code = $2, discount = $3, total = subtotal - $3 WHERE id = $1', [
    reservationId,
    coupon?.code ?? null,
    coupon?.discount ?? 0,
  ])
}

/**
 * Marks booked reservations past their expiration as canceled (reason EXPIRED) and
 * frees their seats. One statement, so it never races a payment that locked the row.
 */
export async function expireBookings(
  q: Queryable,
  now: Date,
  scope: { tripId?: number; reservationId?: number; passengerId?: number } = {},
): Promise<void> {
  await q.query(
    `WITH expired AS (
       UPDATE reservations SET status = ${reservationStatus.canceled}, canceled_at = expiration_time, cancel_reason = 'EXPIRED'
        WHERE status = ${reservationStatus.booked} AND expiration_time <= $1
          AND ($2::int IS NULL OR trip_id = $2) AND ($3::int IS NULL OR id = $3) AND ($4::int IS NULL OR passenger_id = $4)
        RETURNING id)
     UPDATE reservation_seats SET active = false WHERE active AND reservation_id IN (SELECT id FROM expired)`,
    [now, scope.tripId ?? null, scope.reservationId ?? null, scope.passengerId ?? null],
  )
}
