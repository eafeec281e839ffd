/**
 * Booking and payment: turns the held seats into a booking, extends
 * its time, applies or removes a coupon (the fare always comes from the
 * server), pays by card through the gateway or from the balance, and confirms
 * the gateway's result on /reservation/success and /reservation/failure.
 *
 * Paying once: a pay action refuses to start while another booking action
 * runs, and the server answers a repeated card request (double click, second
 * tab, reload) with the same pending payment, so one booking never gets two
 * payments or two tickets.
 *
 * Actions are the only writers; the page sends the browser to the gateway.
 * Nothing here imports or calls the seat page: the seat page's hold receives this store (src/models/hold.ts linkBooking).
 * The state (and the verbs that only touch it) is in booking-state.ts; its public part is re-exported here.
 * uvu runs this in Node against `fakeApi` and `fakeClock`.
 */
import { batch } from '@preact/signals-react'
import type { PaymentResult, Reservation } from '../../contract/schemas.ts'
import { reservationStatus } from '../../contract/values.ts'
import { requestError } from '../api/api-error.ts'
import { call } from '../api/index.ts'
import { every, now } from '../lib/clock.ts'
import { afterPageShown } from '../lib/page-shown.ts'
import {
  announce,
  announcementState,
  type BookingInput,
  bookingState,
  busyState,
  canExtend,
  canPay,
  errorState,
  EXTEND_MINUTES,
  nowState,
  phase,
  redirectingState,
  refreshBalance,
  resultState,
  run,
} from './booking-state.ts'
import { resultRequest } from './payment-tokens.ts'
import { keepTicketsLater } from './saved-tickets-later.ts'
import * as session from './session.ts'

export type * from './booking-state.ts'
export {
  announcement,
  payByCard,
  booking,
  busy,
  canExtend,
  canPay,
  cancelRedirect,
  dismissError,
  EXTEND_MINUTES,
  error,
  gatewayUrl,
  insufficientBalance,
  paymentResult,
  phase,
  redirecting,
} from './booking-state.ts'

/** The resume check under way (it runs on its own whenever the seat page loads its trip), if any. */
let resuming: Promise<Reservation | undefined> | null = null

/** Shows `r` (on the seat page, its hold follows: src/models/hold.ts). */
function adopt(r: Reservation): void {
  batch(() => {
    bookingState.value = r
    nowState.value = now()
  })
  // a sold ticket opens offline later (saved-tickets.ts): kept once the page has shown it
  const owner = session.passenger.value?.id ?? null
  afterPageShown(() => void keepTicketsLater(owner, [r]))
}

function expire(): void {
  if (bookingState.value?.status !== reservationStatus.booked) return
  nowState.value = now()
  announce('booking.announceExpired')
}

// ---------- actions ----------

/** Books the held seats. The hold countdown continues on the booking's expiry. */
export async function book(input: BookingInput): Promise<Reservation | undefined> {
  const body = {
    tripId: input.tripId,
    seatNames: input.seatNames,
    boardingStationId: input.boardingStationId,
    droppingStationId: input.droppingStationId,
    passengerName: input.passengerName.trim(),
    passengerMobile: input.passengerMobile.trim(),
    passengerEmail: input.passengerEmail?.trim() || null,
  }
  // Book pressed while the background resume check runs (it holds the one-at-a-time guard):
  // wait for it instead of being dropped by the guard; a live booking it found is the answer
  const check = resuming
  if (check) {
    const live = await check
    if (live && live.tripId === input.tripId && phase.value === 'booked') return live
  }
  const r = await run('book', 'book', () => call('booking', { body }))
  if (!r) return undefined
  adopt(r)
  announce('booking.announceBooked', { total: r.fare.total, expires: r.expirationTime ?? '' })
  return r
}

/**
 * Picks up the passenger's unpaid booking of this trip (reload, second tab,
 * back from the gateway), so it is paid rather than booked again.
 */
export async function resume(tripId: number): Promise<Reservation | undefined> {
  const current = bookingState.value
  if (current && current.tripId === tripId && phase.value === 'booked') return current
  if (!session.isSignedIn.value || busyState.value !== null) return undefined
  busyState.value = 'resume'
  const task = (async () => {
    try {
      const asked = now()
      const list = await call('myReservations')
      const live = list.find(
        (r) => r.tripId === tripId && r.status === reservationStatus.booked && !!r.expirationTime && Date.parse(r.expirationTime) > asked,
      )
      if (live) adopt(live)
      else if (current && current.tripId !== tripId) bookingState.value = null
      return live
    } catch {
      // nothing to resume: the form is shown
      return undefined
    } finally {
      busyState.value = null
    }
  })()
  resuming = task
  try {
    return await task
  } finally {
    if (resuming === task) resuming = null
  }
}

/** Asks the server for EXTEND_MINUTES more (at most up to the booking's maximum); answers the new expiry. */
export async function extend(): Promise<string | undefined> {
  const r = bookingState.value
  if (!r || !canExtend.value || !r.expirationTime || !r.maxExpirationTime) return undefined
  const wanted = Math.min(Date.parse(r.maxExpirationTime), Math.max(now(), Date.parse(r.expirationTime)) + EXTEND_MINUTES * 60_000)
  const body = { reservationId: r.id, expirationTime: new Date(wanted).toISOString() }
  const next = await run('extend', 'extend', () => call('extendBooking', { body }))
  if (!next) return undefined
  adopt(next)
  announce('booking.announceExtended', { expires: next.expirationTime ?? '' })
  return next.expirationTime ?? undefined
}

/** Applies a coupon code; the fare shown is the server's answer. */
export async function applyCoupon(code: string): Promise<boolean> {
  const r = bookingState.value
  const couponCode = code.trim().toUpperCase()
  if (!r || phase.value !== 'booked') return false
  if (!couponCode) {
    errorState.value = { scope: 'coupon', code: 'INVALID_COUPON', reason: '' }
    return false
  }
  const next = await run('coupon', 'coupon', () => call('applyCoupon', { params: { reservationId: r.id, couponCode } }))
  if (!next) return false
  adopt(next)
  announce('booking.announceCoupon', { code: next.fare.couponCode ?? couponCode, discount: next.fare.discount, total: next.fare.total })
  return true
}

/** Removes the applied coupon; the fare shown is the server's answer. */
export async function removeCoupon(): Promise<boolean> {
  const r = bookingState.value
  if (!r || phase.value !== 'booked' || !r.fare.couponCode) return false
  const couponCode = r.fare.couponCode
  const next = await run('coupon', 'coupon', () => call('removeCoupon', { params: { reservationId: r.id, couponCode } }))
  if (!next) return false
  adopt(next)
  announce('booking.announceCouponRemoved', { total: next.fare.total })
  return true
}

/** Pays from the balance; INSUFFICIENT_BALANCE leaves the booking as it is (card still possible). */
export async function payFromBalance(): Promise<Reservation | undefined> {
  const r = bookingState.value
  if (!r || !canPay.value) return undefined
  const sold = await run('balance', 'payment', () => call('payFromBalance', { body: { reservationId: r.id } }))
  await refreshBalance()
  if (!sold) {
    if (errorState.value?.code === 'INSUFFICIENT_BALANCE') announce('booking.announceInsufficient')
    return undefined
  }
  adopt(sold)
  announce('booking.announcePaid', { pnr: sold.pnr ?? '' })
  return sold
}

/** Gives the unpaid booking up; its seats become available again. */
export async function cancelBooking(): Promise<boolean> {
  const r = bookingState.value
  if (!r || phase.value !== 'booked') return false
  const next = await run('cancel', 'cancel', () => call('cancelBooking', { body: { reservationId: r.id } }))
  if (!next) return false
  adopt(next)
  announce('booking.announceCanceled')
  return true
}

const confirming = new Map<string, Promise<PaymentResult | undefined>>()

/**
 * Confirms the gateway's result with the server (POST /reservation/success or
 * /failure). The same payment is confirmed once per page life; the server's
 * confirmation is idempotent, so a reload shows the same ticket.
 */
export function confirmPayment(paymentId: string, outcome: 'success' | 'failure'): Promise<PaymentResult | undefined> {
  const key = `${outcome}:${paymentId}`
  const running = confirming.get(key)
  if (running) return running
  const task = (async () => {
    batch(() => {
      busyState.value = 'confirm'
      errorState.value = null
      resultState.value = null
      redirectingState.value = false
    })
    try {
      const res = await call(outcome === 'success' ? 'paymentSuccess' : 'paymentFailure', { body: resultRequest(paymentId) })
      if (res.reservation) await keepTicketsLater(session.passenger.value?.id ?? null, [res.reservation], paymentId)
      batch(() => {
        resultState.value = res
        // the status alone (not this tab's payment, not signed in as its payer): no booking to show
        if (res.reservation || !res.full) bookingState.value = res.reservation
        nowState.value = now()
      })
      const p = session.passenger.value
      if (p && res.balance !== null) session.updatePassenger({ ...p, balance: res.balance })
      if (res.reservation?.status === reservationStatus.sold) announce('booking.announcePaid', { pnr: res.reservation.pnr ?? '' })
      else if (res.status === 'DECLINED') announce('booking.announceDeclined')
      else if (res.status === 'REVIEW') announce('booking.announceReview')
      return res
    } catch (err) {
      confirming.delete(key)
      errorState.value = { scope: 'confirm', ...requestError(err) }
      return undefined
    } finally {
      busyState.value = null
    }
  })()
  confirming.set(key, task)
  return task
}

/**
 * Asks the server again about a payment still being confirmed (PENDING): the
 * server checks with the gateway. Answers the new result.
 */
export function recheckPayment(paymentId: string): Promise<PaymentResult | undefined> {
  if (busyState.value === 'confirm') return confirming.get(`success:${paymentId}`) ?? Promise.resolve(undefined)
  confirming.delete(`success:${paymentId}`)
  return confirmPayment(paymentId, 'success')
}

/** Opens a paid booking by its reservation id (after paying from the balance). */
export async function loadBooking(id: number): Promise<Reservation | undefined> {
  const current = bookingState.value
  if (current?.id === id) return current
  const r = await run('confirm', 'confirm', () => call('reservationById', { params: { id } }))
  if (r) adopt(r)
  return r
}

/** Moves the countdown on; a booking whose time is up ends (the server expires it too). */
export function tick(): void {
  const wasBooked = phase.value === 'booked'
  nowState.value = now()
  if (wasBooked && phase.value === 'ended') expire()
}

/** Runs the countdown clock; returns the disposer. */
export function startBookingClock(): () => void {
  return every(1000, () => {
    if (bookingState.value?.status === reservationStatus.booked) tick()
  })
}

/** Forgets the booking (a new trip, logout, tests). */
export function resetBooking(): void {
  confirming.clear()
  batch(() => {
    bookingState.value = null
    busyState.value = null
    errorState.value = null
    announcementState.value = null
    resultState.value = null
    redirectingState.value = false
    nowState.value = now()
  })
}

// a paid booking (the success page's ticket, with its PIN) is not the next person's after a LOGOUT or a 401
session.whenPassengerLeaves(resetBooking)
