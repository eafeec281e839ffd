/**
 * Moving a sold ticket (or a live unpaid booking: moveBooking, free, its deadline kept) to another
 * trip of its route (another date or coach): the quote (the new seats' fare, the operator's change charge, the difference to pay or to get back), and the
 * change, which keeps the PNR and PIN. The old seats are freed in the transaction that takes the
 * new ones, so the passenger never holds neither. A difference paid from the balance (or nothing
 * to pay) changes the ticket at once; one paid on the gateway's page waits as a PENDING change whose
 * seats are held by a lock of its own (`c:<id>`) until it expires, and is made by confirmPayment in
 * the payment's transaction (applyChangePayment), or refunded when it came too late.
 */
import { reservationStatus, type PayChoice, type SeatType } from '../../contract/schemas.ts'
import { credit, debit } from '../account/ledger.ts'
import { getCompany } from '../company/company.ts'
import { AppError, type Deps } from '../core.ts'
import type { Queryable } from '../db/db.ts'
import {
  renderChangeRefusedEmail,
  renderChangeRefusedSms,
  renderTicketChangeEmail,
  renderTicketChangeSms,
  type RefundTo,
} from '../delivery/ticket-messages.ts'
import { addTime } from '../lib/time.ts'
import { assertOnSale, assertSaleOpen, findTrip } from '../trips/trips.ts'
import {
  assertLiveBooking,
  assertNotUnderReview,
  assertUnpaidLimits,
  declinePending,
  expireBookings,
  lockUnpaidLimits,
  ownReservation,
  type ReservationRow,
  rememberFirstHolds,
} from './bookings.ts'
import { assertDateCap, lockDateCap } from './date-cap.ts'
import type { PaymentRow } from './payment-row.ts'
import { loadReservation } from './reservation-view.ts'
import { queueCardRefund, quotedRefundPlaces, refundsToCard, refundTicket } from './refunds.ts'
import { issueTicketLink, TICKET_STATUSES, ticketLinkUrl } from './ticket-codes.ts'
import { cancelQuote, reservationLanguage, ticketEmail } from './tickets.ts'

/** A change asked for: the caller's ticket, the trip to move it to and the seats chosen there. */
export interface ChangeAsk {
  reservationId: number
  passengerId: number
  tripId: number
  seatNames: string[]
  now: Date
}

/** What moving a ticket costs now (contract changeQuoteResponse), with the new seats' types and fares. */
export interface ChangeQuote {
  reservationId: number
  fromTripId: number
  tripId: number
  seats: { name: string; seatType: SeatType; fare: number }[]
  subtotal: number
  discount: number
  fare: number
  newFare: number
  charge: number
  toPay: number
  refund: number
}

/**
 * The quote for moving ticket or live booking `r` to trip `ask.tripId` (a booking's: nothing to pay
 * or get back), or the catalogue error that refuses it: RESERVATION_NOT_CHANGEABLE (not a live
 * ticket or booking), the cancel cut-off's errors (cancelQuote, tickets only), a booking's (assertChangeableBooking),
 * TRIP_NOT_FOUND, VALIDATION_FAILED (the same trip, another number of seats), TRIP_NOT_ALLOWED
 * (another route), the new trip's sale errors, SEAT_NOT_FOUND.
 */
export async function quoteChange(
  q: Queryable,
  deps: Deps,
  r: ReservationRow,
  ask: Omit<ChangeAsk, 'passengerId' | 'reservationId'>,
): Promise<ChangeQuote> {
  const booked = r.status === reservationStatus.booked
  if (booked) await assertChangeableBooking(q, r, ask.now)
  else {
    if (!TICKET_STATUSES.includes(r.status)) throw new AppError('RESERVATION_NOT_CHANGEABLE')
    // A ticket may be changed while, and on the terms that, it may be cancelled.
    await cancelQuote(q, r, ask.now)
  }
  const [from, trip] = await Promise.all([findTrip(q, r.trip_id), findTrip(q, ask.tripId)])
  if (!from || !trip) throw new AppError('TRIP_NOT_FOUND')
  if (trip.id === from.id) throw new AppError('VALIDATION_FAILED', { fields: [{ path: 'tripId', message: 'Choose another trip than the ticket’s' }] })
  if (trip.route_id !== from.route_id)
    throw new AppError('TRIP_NOT_ALLOWED', { reason: 'A ticket can be changed only to another trip of its own route.' })
  assertOnSale(trip, ask.now)
  assertSaleOpen(trip, ask.now)
  const names = [...new Set(ask.seatNames)].sort()
  const [{ n: live } = { n: 0 }] = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM reservation_seats WHERE reservation_id = $1 AND trip_id = $2 AND active',
    [r.id, r.trip_id],
  )
  if (names.length !== ask.seatNames.length || names.length !== live) {
    throw new AppError('VALIDATION_FAILED', { fields: [{ path: 'seatNames', message: `Choose ${live} different seats, as many as the ticket has` }] })
  }
  const layout = await q.query<{ name: string; seat_type: SeatType }>(
    "SELECT name, seat_type FROM layout_seats WHERE layout_id = $1 AND name = ANY($2::text[]) AND name <> 'OPEN' ORDER BY name",
    [trip.layout_id, names],
  )
  if (layout.length !== names.length) throw new AppError('SEAT_NOT_FOUND')
  const seats = layout.map((s) => ({ name: s.name, seatType: s.seat_type, fare: trip.fares[s.seat_type] ?? 0 }))
  const subtotal = seats.reduce((a, s) => a + s.fare, 0)
  // The ticket's coupon discount goes with it, never above the new fare.
  const discount = Math.min(r.discount, subtotal)
  const newFare = subtotal - discount
  // An unpaid booking moves free: nothing was paid, and cancelling and booking again would cost nothing either.
  const charge = booked ? 0 : Math.max(0, deps.config.ticketChangeCharge ?? 0)
  const difference = booked ? 0 : newFare + charge - r.total
  return {
    reservationId: r.id,
    fromTripId: r.trip_id,
    tripId: trip.id,
    seats,
    subtotal,
    discount,
    fare: r.total,
    newFare,
    charge,
    toPay: Math.max(0, difference),
    refund: Math.max(0, -difference),
  }
}

/**
 * Throws unless booking `r` may move: live at `now` (BOOKING_NOT_FOUND), no card payment of it under
 * review (PAYMENT_UNDER_REVIEW), and no leg of a round trip (RESERVATION_NOT_CHANGEABLE: its legs' times are tied).
 */
async function assertChangeableBooking(q: Queryable, r: ReservationRow, now: Date): Promise<void> {
  assertLiveBooking(r, now)
  await assertNotUnderReview(q, r.id)
  const legs = await q.query(
    `SELECT 1 FROM reservations WHERE outbound_reservation_id = $1 AND status = ${reservationStatus.booked} AND booking_live(status, expiration_time, $2)`,
    [r.id, now],
  )
  if (r.outbound_reservation_id != null || legs.length > 0) {
    throw new AppError('RESERVATION_NOT_CHANGEABLE', { reason: 'A booking of a round trip cannot be changed. Cancel it and book again.' })
  }
}

/** The quote as the contract answers it, with where a refund would go. */
export async function changeQuoteView(q: Queryable, deps: Deps, r: ReservationRow, quote: ChangeQuote) {
  return {
    reservationId: quote.reservationId,
    fromTripId: quote.fromTripId,
    tripId: quote.tripId,
    seats: quote.seats,
    fare: quote.fare,
    newFare: quote.newFare,
    charge: quote.charge,
    toPay: quote.toPay,
    refund: quote.refund,
    // as the change would refund it (refundTicket): each place and its part
    ...(await quotedRefundPlaces(q, deps, r, quote.refund)),
  }
}

/** A change confirmed: the trip the passenger saw the ticket on, the amounts shown, how to pay, and the caller's lock holders. */
export interface ChangeOrder extends ChangeAsk {
  fromTripId: number
  toPay: number
  refund: number
  payWith: 'balance' | PayChoice
  holders: string[]
}

/** A ticket_changes row. */
interface ChangeRow {
  id: number
  reservation_id: number
  from_trip_id: number
  to_trip_id: number
  seat_names: string[]
  holders: string[]
  subtotal: number
  discount: number
  charge: number
  amount: number
  status: 'PENDING' | 'DONE' | 'ABANDONED'
  expires_at: Date
}

/**
 * Changes the caller's ticket, or opens the change whose difference is paid on the gateway's page:
 * answers `{ done: true }`, or the PENDING change's id and amount for the payment. Under the
 * ticket's row lock: another change of it since the passenger looked (`fromTripId`) is
 * RESERVATION_NOT_CHANGEABLE, other amounts than they were shown RETURN_AMOUNT_MISMATCH, seats
 * not held by the caller SEAT_UNAVAILABLE (someone else's) or BOOKING_TIME_EXCEED (their hold ran out).
 */
export async function changeTicket(deps: Deps, order: ChangeOrder): Promise<{ done: true } | { done: false; changeId: number; amount: number }> {
  const { now } = order
  return deps.db.transaction(async (tx) => {
    const r = await ownReservation(tx, order.reservationId, order.passengerId, true)
    if (r.trip_id !== order.fromTripId) {
      throw new AppError('RESERVATION_NOT_CHANGEABLE', { reason: 'This ticket was changed meanwhile. Open it again to see it as it is now.' })
    }
    const quote = await quoteChange(tx, deps, r, order)
    if (quote.toPay !== order.toPay || quote.refund !== order.refund) {
      throw new AppError('RETURN_AMOUNT_MISMATCH', { reason: 'The price of this change has changed. Check the new amounts and confirm again.' })
    }
    // A change left open on the gateway's page gives way to this one: its seats go back, its late payment is refunded.
    await abandonPending(tx, r.id)
    const byGateway = quote.toPay > 0 && order.payWith !== 'balance'
    const [c] = await tx.query<ChangeRow>(
      `INSERT INTO ticket_changes (reservation_id, from_trip_id, to_trip_id, seat_names, holders, subtotal, discount, charge, amount, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
      [
        r.id,
        r.trip_id,
        quote.tripId,
        quote.seats.map((s) => s.name),
        order.holders,
        quote.subtotal,
        quote.discount,
        quote.charge,
        quote.toPay - quote.refund,
        now,
        changeExpiry(deps, now, await departureOf(tx, quote.tripId)),
      ],
    )
    await takeSeatLocks(tx, c!, now)
    if (r.status === reservationStatus.booked) {
      // A card payment opened for the old trip's amount must not be approvable.
      await declinePending(tx, r.id, now)
      await moveBooking(tx, deps, r, c!, now)
      return { done: true as const }
    }
    if (byGateway) return { done: false as const, changeId: c!.id, amount: quote.toPay }
    if (quote.toPay > 0) {
      const balance = await debit(tx, {
        passengerId: order.passengerId,
        amount: quote.toPay,
        kind: 'TICKET_PAYMENT',
        description: `Ticket ${r.pnr} changed: the difference`,
        reservationId: r.id,
        at: now,
      })
      if (balance === null) throw new AppError('INSUFFICIENT_BALANCE')
    }
    await moveTicket(tx, deps, r, c!, now, quote.toPay > 0 ? 'BALANCE' : null)
    return { done: true as const }
  })
}

// A change paid on the gateway's page keeps its seats as long as a booking would, never past the trip's departure.
function changeExpiry(deps: Deps, now: Date, departure: Date): Date {
  const at = addTime(now, { minutes: deps.config.holdMinutes })
  return at.getTime() < departure.getTime() ? at : departure
}

async function departureOf(q: Queryable, tripId: number): Promise<Date> {
  const [t] = await q.query<{ departure_at: Date }>('SELECT departure_at FROM trips WHERE id = $1', [tripId])
  return t!.departure_at
}

/**
 * Moves the caller's live locks of the change's seats to the change itself (holder `c:<id>`, until
 * it expires), so nothing the passenger's page does next releases them. SEAT_UNAVAILABLE when
 * someone else holds or bought one, BOOKING_TIME_EXCEED when the caller's hold ran out.
 */
async function takeSeatLocks(tx: Queryable, c: ChangeRow, now: Date): Promise<void> {
  const taken = await tx.query(
    `UPDATE seat_locks SET holder = $4, expires_at = $5
      WHERE trip_id = $1 AND seat_name = ANY($2::text[]) AND holder = ANY($3::text[]) AND expires_at > $6 RETURNING seat_name`,
    [c.to_trip_id, c.seat_names, c.holders, `c:${c.id}`, c.expires_at, now],
  )
  if (taken.length === c.seat_names.length) return
  const others = await tx.query(
    `SELECT 1 FROM seat_locks WHERE trip_id = $1 AND seat_name = ANY($2::text[]) AND expires_at > $3 AND NOT (holder = ANY($4::text[]))
     UNION ALL
     SELECT 1 FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
      WHERE rs.trip_id = $1 AND rs.seat_name = ANY($2::text[]) AND seat_taken(rs.active, x.status, x.expiration_time, $3)`,
    [c.to_trip_id, c.seat_names, now, c.holders],
  )
  throw new AppError(others.length > 0 ? 'SEAT_UNAVAILABLE' : 'BOOKING_TIME_EXCEED')
}

/** Ends the ticket's PENDING changes (their seat locks released); a payment of theirs that still arrives is refunded. */
async function abandonPending(tx: Queryable, reservationId: number): Promise<void> {
  await abandon(tx, "reservation_id = $1 AND status = 'PENDING'", reservationId)
}

/** Ends PENDING change `id` whose payment could not be opened: its seats go back at once. */
export async function abandonChange(q: Queryable, id: number): Promise<void> {
  await abandon(q, "id = $1 AND status = 'PENDING'", id)
}

async function abandon(q: Queryable, where: string, value: number): Promise<void> {
  const gone = await q.query<{ id: number }>(`UPDATE ticket_changes SET status = 'ABANDONED' WHERE ${where} RETURNING id`, [value])
  if (gone.length === 0) return
  await q.query('DELETE FROM seat_locks WHERE holder = ANY($1::text[])', [gone.map((g) => `c:${g.id}`)])
}

/**
 * Moves locked live booking `r` to the change's trip and seats, in `tx`, as moveTicket does a
 * ticket's; it stays unpaid and ends when it would have (never after the new trip leaves), under
 * the booking's hold limits (bookings.ts assertUnpaidLimits) on the new trip. No message: a booking sends none.
 */
async function moveBooking(tx: Queryable, deps: Deps, r: ReservationRow, c: ChangeRow, now: Date): Promise<void> {
  await lockUnpaidLimits(tx, r.passenger_id!, r.address)
  await moveSeats(tx, deps, r, c, now)
  // The payment deadline is kept (a change never renews a hold), cut to the new trip's departure.
  const [end] = await tx.query<{ expiration_time: Date; max_expiration_time: Date }>(
    `UPDATE reservations SET expiration_time = least(expiration_time, t.departure_at), max_expiration_time = least(max_expiration_time, t.departure_at)
       FROM trips t WHERE reservations.id = $1 AND t.id = $2 RETURNING expiration_time, max_expiration_time`,
    [r.id, c.to_trip_id],
  )
  const at = { tripId: c.to_trip_id, passengerId: r.passenger_id!, address: r.address, now }
  await assertUnpaidLimits(tx, deps.config, at)
  // Booking the new seats again after cancelling ends no later than this booking (no renewal through a change).
  await rememberFirstHolds(tx, deps.config, { ...at, names: c.seat_names, expiresAt: end!.expiration_time, maxExpiresAt: end!.max_expiration_time })
  await tx.query("UPDATE ticket_changes SET status = 'DONE', done_at = $2 WHERE id = $1", [c.id, now])
}

/**
 * Moves locked ticket `r` to the change's trip and seats, in `tx`: its change locks spent, the new
 * seats taken (SEAT_UNAVAILABLE if another booking has one) before the old ones are freed, its fare
 * and trip updated (its PNR and PIN kept, its QR codes signed before now revoked), a difference
 * refunded (refundTicket) and one SMS and e-mail. `paidBy`: how a difference was paid.
 */
async function moveTicket(tx: Queryable, deps: Deps, r: ReservationRow, c: ChangeRow, now: Date, paidBy: 'BALANCE' | 'CARD' | null): Promise<void> {
  await moveSeats(tx, deps, r, c, now)
  await tx.query('UPDATE reservations SET status = $2, cancel_otp_hash = NULL, cancel_otp_expires_at = NULL WHERE id = $1', [
    r.id,
    reservationStatus.sold,
  ])
  await tx.query("UPDATE ticket_changes SET status = 'DONE', done_at = $2 WHERE id = $1", [c.id, now])
  const refund = Math.max(0, -c.amount)
  const refundTo = await refundTicket(tx, deps, r, {
    amount: refund,
    reason: 'TICKET_CHANGED',
    description: `Ticket ${r.pnr} changed: the difference refunded`,
    now,
    part: -c.id,
  })
  await enqueueChangeNotice(tx, deps, r.id, { paid: paidBy ? c.amount : 0, refund, refundTo })
}

/**
 * The change's seats taken on its trip (its change locks spent; SEAT_UNAVAILABLE if another booking
 * has one) before the reservation's old ones are freed, its trip and fare updated, in `tx`, under
 * the new date's cap per passenger.
 */
async function moveSeats(tx: Queryable, deps: Deps, r: ReservationRow, c: ChangeRow, now: Date): Promise<void> {
  await tx.query('DELETE FROM seat_locks WHERE trip_id = $1 AND holder = $2', [c.to_trip_id, `c:${c.id}`])
  // Expired bookings still hold their seats in the unique index until swept.
  await expireBookings(tx, now, { tripId: c.to_trip_id })
  const trip = await findTrip(tx, c.to_trip_id)
  const layout = await tx.query<{ name: string; seat_type: string }>(
    'SELECT name, seat_type FROM layout_seats WHERE layout_id = $1 AND name = ANY($2::text[])',
    [trip!.layout_id, c.seat_names],
  )
  try {
    await tx.query('SAVEPOINT change_seats')
    await tx.query(
      `INSERT INTO reservation_seats (reservation_id, trip_id, seat_name, seat_type, fare)
       SELECT $1, $2, n, t, f FROM unnest($3::text[], $4::text[], $5::int[]) AS u(n, t, f)`,
      [r.id, c.to_trip_id, layout.map((s) => s.name), layout.map((s) => s.seat_type), layout.map((s) => trip!.fares[s.seat_type] ?? 0)],
    )
    await tx.query('RELEASE SAVEPOINT change_seats')
  } catch (err) {
    // The one-active-row index refused a seat another booking took meanwhile.
    if ((err as { code?: string }).code !== '23505') throw err
    await tx.query('ROLLBACK TO SAVEPOINT change_seats')
    throw new AppError('SEAT_UNAVAILABLE')
  }
  // A change to another date counts against that date's cap per passenger (SEATS_PER_PASSENGER_PER_DATE), as a booking does.
  const cap = r.passenger_id != null && (await findTrip(tx, c.from_trip_id))?.trip_date !== trip!.trip_date
  const capAt = { passengerId: r.passenger_id!, mobile: r.passenger_mobile, tripDate: trip!.trip_date }
  if (cap) await lockDateCap(tx, capAt)
  await tx.query('UPDATE reservation_seats SET active = false WHERE reservation_id = $1 AND trip_id = $2 AND active', [r.id, c.from_trip_id])
  await tx.query(
    'UPDATE reservations SET trip_id = $2, subtotal = $3, discount = $4, total = $3::int - $4::int, ticket_changed_at = $5 WHERE id = $1',
    [r.id, c.to_trip_id, c.subtotal, c.discount, now],
  )
  if (cap) await assertDateCap(tx, deps.config.seatsPerPassengerPerDate, { ...capAt, seats: c.seat_names.length, now })
}

/** The changed ticket's one SMS (with its link) and one e-mail (the ticket as it is now), in `tx`. */
async function enqueueChangeNotice(
  tx: Queryable,
  deps: Deps,
  id: number,
  money: { paid: number; refund: number; refundTo: RefundTo },
): Promise<void> {
  const r = await loadReservation(tx, id)
  if (!r) return
  const lang = await reservationLanguage(tx, id)
  const link = ticketLinkUrl(deps.config.appUrl, await issueTicketLink(tx, id))
  await deps.outbox.send({ channel: 'SMS', to: r.passengerMobile, body: renderTicketChangeSms(r, lang, money, link) }, tx)
  const [owner] = await tx.query<{ passenger_id: number | null }>('SELECT passenger_id FROM reservations WHERE id = $1', [id])
  const email = await ticketEmail(tx, r, owner?.passenger_id ?? null)
  if (!email) return
  const mail = renderTicketChangeEmail(r, lang, { company: await getCompany(tx), appUrl: deps.config.appUrl, now: deps.now() }, money)
  await deps.outbox.send({ channel: 'EMAIL', to: email, subject: mail.subject, body: mail.text, html: mail.html, attachments: mail.attachments }, tx)
}

/**
 * Applies approved CHANGE payment `p` in `tx` (confirmPayment's, which won it): makes its change
 * while it is PENDING and unexpired and the ticket may still be changed to those seats; otherwise
 * (abandoned, expired, refused now) the change is ABANDONED, the amount refunded where it came
 * from (to the balance under REFUND_TO=balance) and the passenger told. Answers whether it was made.
 */
export async function applyChangePayment(tx: Queryable, deps: Deps, p: PaymentRow, now: Date): Promise<boolean> {
  const [c] = await tx.query<ChangeRow>('SELECT * FROM ticket_changes WHERE id = $1 FOR UPDATE', [p.change_id])
  const [r] = await tx.query<ReservationRow>('SELECT * FROM reservations WHERE id = $1', [p.reservation_id])
  if (c && r && c.status === 'PENDING' && c.expires_at > now && r.trip_id === c.from_trip_id && c.amount === p.amount) {
    await tx.query('SAVEPOINT change')
    try {
      await quoteChange(tx, deps, r, { tripId: c.to_trip_id, seatNames: c.seat_names, now })
      await moveTicket(tx, deps, r, c, now, 'CARD')
      return true
    } catch (err) {
      if (!(err instanceof AppError)) throw err
      await tx.query('ROLLBACK TO SAVEPOINT change')
    }
  }
  if (c) {
    await tx.query("UPDATE ticket_changes SET status = 'ABANDONED' WHERE id = $1 AND status = 'PENDING'", [c.id])
    await tx.query('DELETE FROM seat_locks WHERE holder = $1', [`c:${c.id}`])
  }
  const toCard = refundsToCard(deps)
  if (toCard) {
    await queueCardRefund(tx, p, { amount: p.amount, reason: 'BOOKING_ENDED', reservationId: p.reservation_id, now })
  } else {
    await credit(tx, {
      passengerId: p.passenger_id,
      amount: p.amount,
      kind: 'REFUND',
      reason: 'BOOKING_ENDED',
      description: `Payment for a change of ticket ${r?.pnr ?? ''} refunded: the change had ended`,
      reservationId: p.reservation_id,
      at: now,
    })
    await tx.query('UPDATE payments SET refunded = true WHERE id = $1', [p.id])
  }
  const view = r ? await loadReservation(tx, r.id) : null
  if (view) {
    const lang = await reservationLanguage(tx, view.id)
    const refundTo: RefundTo = toCard ? 'CARD' : 'BALANCE'
    const paidWith = p.paid_with ?? 'card'
    const line = renderChangeRefusedSms({ ...view, paidWith }, lang, p.amount, refundTo)
    await deps.outbox.send({ channel: 'SMS', to: view.passengerMobile, body: line }, tx)
    const email = await ticketEmail(tx, view, r!.passenger_id)
    if (email) {
      const mail = renderChangeRefusedEmail({ ...view, paidWith }, lang, p.amount, refundTo, {
        company: await getCompany(tx),
        appUrl: deps.config.appUrl,
        now,
      })
      await deps.outbox.send(
        { channel: 'EMAIL', to: email, subject: mail.subject, body: mail.text, html: mail.html, attachments: mail.attachments },
        tx,
      )
    }
  }
  return false
}
