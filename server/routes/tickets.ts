/**
 * Tickets: viewing a reservation (by id for its owner, or by PNR and PIN), the
 * passenger's list, cancelling a sold ticket with an SMS code (refund to the
 * balance) and resending the ticket e-mail.
 */
import { quotedRefundPlaces, refundsToCard } from '../bookings/refunds.ts'
import type { FastifyInstance } from 'fastify'
import { offerFreedSeatsSafely } from '../waitlist/waitlist.ts'
import { OTP_RESEND_SECONDS, type Reservation } from '../../contract/schemas.ts'
import { linkView, reservationOfLink, ticketCheck, withTicketCodes } from '../bookings/ticket-codes.ts'
import { expireBookings, ownReservation, type ReservationRow } from '../bookings/bookings.ts'
import { AppError, type Auth, type Deps } from '../core.ts'
import { handle, pathId } from '../http/handle.ts'
import { addressKey, take, type Limit } from '../http/limits.ts'
import { issueOtp, verifyOtp } from '../account/otp.ts'
import { languageOf } from '../delivery/ticket-messages.ts'
import { loadReservations, mustLoadReservation } from '../bookings/reservation-view.ts'
import {
  cancelPolicy,
  cancelCodeRemembered,
  cancelQuote,
  cancelTicket,
  findByPnr,
  maskMobile,
  passengerReservationIds,
  pnrOwner,
  refundMobile,
  rememberCancelCode,
  sendTicket,
  TICKET_STATUSES,
  ticketEmail,
} from '../bookings/tickets.ts'

/** Wrong PINs one PNR takes (all PNR and PIN routes together) before it is closed for a while. */
export const PIN_LIMIT: Limit = {
  bucket: 'pnr-pin',
  max: 10,
  windowMs: 15 * 60_000,
  reason: 'Too many wrong PINs for this PNR. Try again in {minutes} minutes.',
}

/** Ticket e-mails one PNR may send. */
export const RESEND_EMAIL_LIMIT: Limit = {
  bucket: 'pnr-resend-email',
  max: 3,
  windowMs: 60 * 60_000,
  reason: 'This ticket was e-mailed several times in the last hour. Try again in {minutes} minutes.',
}

const signed = (deps: Deps, r: Reservation) => withTicketCodes(deps, [r])[0]!

/** Registers the tickets routes. */
export function register(app: FastifyInstance, deps: Deps): void {
  handle(app, deps, 'reservationById', async (call) => {
    const id = pathId(call.params.id, 'id')
    await ownReservation(deps.db, id, call.auth!.passengerId)
    await expireBookings(deps.db, deps.now(), { reservationId: id })
    return signed(deps, await mustLoadReservation(deps.db, id))
  })

  handle(app, deps, 'reservationByPnr', async (call) => {
    const r = await byPnr(deps, call.params.pnr, call.params.pin, call.auth)
    return signed(deps, await mustLoadReservation(deps.db, r.id))
  })

  handle(app, deps, 'myReservations', async (call) => {
    const passengerId = call.auth!.passengerId
    const now = deps.now()
    await expireBookings(deps.db, now, { passengerId })
    return withTicketCodes(deps, await loadReservations(deps.db, await passengerReservationIds(deps.db, passengerId, now)))
  })

  handle(app, deps, 'cancelInitialize', async (call) => {
    const now = deps.now()
    const r = await byPnr(deps, call.params.pnr, call.params.pin, call.auth)
    const quote = await cancelQuote(deps.db, r, now, seatsOf(call.query))
    const places = await quotedRefundPlaces(deps.db, deps, r, quote.refund)
    const mobile = await refundMobile(deps.db, r)
    const address = addressKey(call.req.ip, deps.config.ipv6ClientPrefix)
    const language = languageOf(call.req.headers['accept-language'])
    const sent = await deps.db.transaction((tx) => issueOtp(tx, deps, { mobile, purpose: 'CANCEL_TICKET', ref: r.pnr!, address, language }))
    return {
      reservationId: r.id,
      refundAmount: quote.refund,
      cancellationCharge: quote.charge,
      chargePercent: quote.percent,
      policy: cancelPolicy(refundsToCard(deps)),
      otpSentTo: maskMobile(mobile),
      resendAfterSeconds: sent.resendAfterSeconds ?? OTP_RESEND_SECONDS,
      ...places,
    }
  })

  handle(app, deps, 'verifyCancelTicketOtp', async ({ body, auth }) => {
    const now = deps.now()
    const r = await byPnr(deps, body.pnr, body.pin, auth)
    await cancelQuote(deps.db, r, now)
    await verifyOtp(deps.db, deps, { mobile: await refundMobile(deps.db, r), purpose: 'CANCEL_TICKET', ref: r.pnr!, code: body.otp })
    // The code is consumed; remember it on the reservation so the cancel call can present it.
    await rememberCancelCode(deps.db, r, body.otp, now)
    return true
  })

  handle(app, deps, 'cancel', async (call) => {
    const now = deps.now()
    const r = await byPnr(deps, call.params.pnr, call.params.pin, call.auth)
    const seats = seatsOf(call.query)
    await cancelQuote(deps.db, r, now, seats)
    const otp = call.params.otp
    if (!cancelCodeRemembered(r, otp, now))
      await verifyOtp(deps.db, deps, { mobile: await refundMobile(deps.db, r), purpose: 'CANCEL_TICKET', ref: r.pnr!, code: otp })
    await cancelTicket(deps, r, now, seats)
    await offerFreedSeatsSafely(deps, r.trip_id)
    return mustLoadReservation(deps.db, r.id)
  })

  handle(app, deps, 'ticketByLink', async (call) => {
    const [r] = withTicketCodes(deps, [await mustLoadReservation(deps.db, await reservationOfLink(deps.db, call.params.token ?? ''))])
    return linkView(r!)
  })

  handle(app, deps, 'ticketCheck', async (call) => ticketCheck(deps, call.query.date ?? ''))

  handle(app, deps, 'resendReservationEmail', async (call) => {
    const r = await byPnr(deps, call.params.pnr, call.params.pin, call.auth)
    if (!TICKET_STATUSES.includes(r.status)) throw new AppError('RESERVATION_NOT_ACCESSIBLE', { reason: 'Only a sold ticket can be e-mailed.' })
    const out = await mustLoadReservation(deps.db, r.id)
    const email = await ticketEmail(deps.db, out, r.passenger_id)
    if (!email) throw new AppError('VALIDATION_FAILED', { reason: 'This reservation has no e-mail address.' })
    await take(deps.db, RESEND_EMAIL_LIMIT, r.pnr!, deps.now())
    await sendTicket(deps, out, { email, sms: false })
    return true
  })
}

/** The seats a cancel names (`?seats=A1,A2`, checked by the contract), or null for the whole ticket. */
const seatsOf = (query: { seats?: string }) => (query.seats ? query.seats.split(',') : null)

/**
 * The reservation of a PNR and PIN. Each try counts against the PNR's PIN_LIMIT and a
 * right PIN takes its try back, so after 10 wrong PINs in 15 minutes the PNR answers
 * TOO_MANY_ATTEMPTS, even for the right PIN, until the oldest wrong one is 15 minutes old.
 * Its owner signed in (`auth`) is not held back by strangers' guesses: their tries are
 * neither refused nor counted.
 */
async function byPnr(deps: Deps, pnr: string | undefined, pin: string | undefined, auth: Auth | null): Promise<ReservationRow> {
  if (!pnr || !pin || !/^[A-Za-z0-9]{1,20}$/.test(pnr) || !/^\d{4}$/.test(pin)) throw new AppError('WRONG_PNR_PIN')
  if (auth && (await pnrOwner(deps.db, pnr)) === auth.passengerId) return findByPnr(deps.db, pnr, pin)
  const slot = await take(deps.db, PIN_LIMIT, pnr.trim().toUpperCase(), deps.now())
  try {
    const r = await findByPnr(deps.db, pnr, pin)
    await slot.release()
    return r
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'WRONG_PNR_PIN')) await slot.release()
    throw err
  }
}
