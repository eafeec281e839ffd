/**
 * Booking and payment of one page visit (the seat page's booking step, /reservation/success, /reservation/failure):
 * turns the held seats into a booking, extends its time, applies or removes a coupon (the fare always comes from the
 * server), pays by card through the gateway or from the balance, and confirms the gateway's result.
 *
 * Paying once: a pay action refuses to start while another booking action runs, and the server answers a repeated
 * card request (double click, second tab, reload) with the same pending payment, so one booking never gets two
 * payments or two tickets.
 *
 * Actions are the only writers; the page sends the browser to the gateway. Nothing here imports or calls the seat
 * page: the seat page's hold receives this model (src/models/hold.ts linkBooking). uvu makes a fresh instance in
 * Node against `fakeApi` and `fakeClock`.
 */
import { batch, computed, createModel, type ModelConstructor, type ReadonlySignal, signal } from '@preact/signals-core'
import type { PayChoice, PaymentResult, Reservation } from '../../contract/schemas.ts'
import { reservationStatus } from '../../contract/values.ts'
import { requestError } from '../api/api-error.ts'
import { call } from '../api/index.ts'
import { config } from '../config.ts'
import { every, now } from '../lib/clock.ts'
import { afterPageShown } from '../lib/page-shown.ts'
import { oneAtATime, type ScopedError } from '../stores/one-at-a-time.ts'
import { keepResultToken, resultRequest } from '../stores/payment-tokens.ts'
import { keepTicketsLater } from '../stores/saved-tickets-later.ts'
import { type Session, whenPassengerLeaves } from './session.ts'

/** Where the booking stands: passenger details, booked (to pay), sold, or ended (expired / cancelled). */
export type BookingPhase = 'form' | 'booked' | 'sold' | 'ended'

/** The request running now. */
export type BookingBusy = 'book' | 'extend' | 'coupon' | 'card' | 'balance' | 'cancel' | 'resume' | 'confirm'

/** Which part of the page an error belongs to. */
export type BookingErrorScope = 'book' | 'extend' | 'coupon' | 'payment' | 'cancel' | 'confirm'

/** A server error: the catalogue code and the server's reason (fallback text). */
export type BookingError = ScopedError<BookingErrorScope>

/** A status change for the live region: message id, values, and a sequence number so repeats are announced. */
export interface BookingAnnouncement {
  id: string
  values?: Record<string, string | number>
  seq: number
}

/** The booking form. */
export interface BookingInput {
  tripId: number
  seatNames: string[]
  boardingStationId: number
  droppingStationId: number
  passengerName: string
  passengerMobile: string
  passengerEmail?: string | null
  /** A round trip's return leg: the outbound booking it returns from (paid together with it). */
  outboundReservationId?: number
}

/** Each extension asks for this much more time (capped at the booking's maximum). */
export const EXTEND_MINUTES = 10

/** The gateway page URL: on the API's origin when the API is served from another one. */
export function gatewayUrl(redirectUrl: string, apiBase: string = config.apiBaseUrl): string {
  if (/^https?:\/\//i.test(redirectUrl)) return redirectUrl
  if (!/^https?:\/\//i.test(apiBase)) return redirectUrl
  return new URL(apiBase).origin + redirectUrl
}

/** The booking's state (read-only) and actions. */
export interface Booking {
  /** The booking on screen (status 2 while unpaid, 1 once sold, 5 when ended). */
  booking: ReadonlySignal<Reservation | null>
  busy: ReadonlySignal<BookingBusy | null>
  error: ReadonlySignal<BookingError | null>
  /** The latest status change, for a polite live region. */
  announcement: ReadonlySignal<BookingAnnouncement | null>
  /** The payment result the success / failure page confirmed. */
  paymentResult: ReadonlySignal<PaymentResult | null>
  /** A card payment is on its way to the gateway (the page is about to leave). */
  redirecting: ReadonlySignal<boolean>
  phase: ReadonlySignal<BookingPhase>
  /** The server still allows more time. */
  canExtend: ReadonlySignal<boolean>
  /** A pay button may be pressed: booked, nothing running, not leaving for the gateway. */
  canPay: ReadonlySignal<boolean>
  /** The last balance payment failed for want of balance. */
  insufficientBalance: ReadonlySignal<boolean>
  /** What a payment charges: the booking's total, with a round trip's live return leg's unless the passenger chose the outbound alone. */
  amountDue: ReadonlySignal<number>
  /** The passenger agreed to pay a round trip's outbound alone (its return seats were lost: RETURN_SEATS_LOST). */
  outboundOnly: ReadonlySignal<boolean>
  /** Pays the outbound alone from now on (the passenger's explicit choice after RETURN_SEATS_LOST). */
  payOutboundOnly(): void
  /** Books the held seats. The hold countdown continues on the booking's expiry. */
  book(input: BookingInput): Promise<Reservation | undefined>
  /** Picks up the passenger's unpaid booking of this trip (reload, second tab, back from the gateway), so it is paid rather than booked again. */
  resume(tripId: number): Promise<Reservation | undefined>
  /** Asks the server for EXTEND_MINUTES more (at most up to the booking's maximum); answers the new expiry. */
  extend(): Promise<string | undefined>
  /** Applies a coupon code; the fare shown is the server's answer. */
  applyCoupon(code: string): Promise<boolean>
  /** Removes the applied coupon; the fare shown is the server's answer. */
  removeCoupon(): Promise<boolean>
  /**
   * Pay on the gateway's page with a mobile wallet (bKash, Nagad, Rocket) or a card: opens (or reuses) the booking's
   * payment and answers the page the browser must open. Pressing again while this runs does nothing.
   */
  payByCard(payWith?: PayChoice): Promise<string | undefined>
  /** Pays from the balance; INSUFFICIENT_BALANCE leaves the booking as it is (card still possible). */
  payFromBalance(): Promise<Reservation | undefined>
  /** Gives the unpaid booking up; its seats become available again. */
  cancelBooking(): Promise<boolean>
  /**
   * Confirms the gateway's result with the server (POST /reservation/success or /failure). The same payment is
   * confirmed once per visit; the server's confirmation is idempotent, so a reload shows the same ticket.
   */
  confirmPayment(paymentId: string, outcome: 'success' | 'failure'): Promise<PaymentResult | undefined>
  /** Asks the server again about a payment still being confirmed (PENDING): the server checks with the gateway. Answers the new result. */
  recheckPayment(paymentId: string): Promise<PaymentResult | undefined>
  /** Opens a paid booking by its reservation id (after paying from the balance). */
  loadBooking(id: number): Promise<Reservation | undefined>
  /** Moves the countdown on; a booking whose time is up ends (the server expires it too). */
  tick(): void
  /** Runs the countdown clock; returns the disposer. */
  startClock(): () => void
  /** The page came back from the gateway without paying (browser back): the pay buttons work again. */
  cancelRedirect(): void
  /** Clears the error shown (the passenger edits the field again). */
  dismissError(): void
  /** Forgets the booking (start again with another choice). */
  resetBooking(): void
}

/** The session a booking is paid in. */
type BookingSession = Pick<Session, 'passenger' | 'isSignedIn' | 'updatePassenger' | 'savedTicketsSwept'>

/** Creates the booking of a page visit in `session`; a paid booking (its PIN) is forgotten when the passenger signs out or a 401 ends the session. */
export const BookingModel: ModelConstructor<Booking, [BookingSession]> = createModel((session: BookingSession): Booking => {
  const booking = signal<Reservation | null>(null)
  const busy = signal<BookingBusy | null>(null)
  const error = signal<BookingError | null>(null)
  const run = oneAtATime(busy, error)
  const announcement = signal<BookingAnnouncement | null>(null)
  const clock = signal(now())
  const paymentResult = signal<PaymentResult | null>(null)
  const redirecting = signal(false)
  const outboundOnly = signal(false)
  // numbers the announcements, so the same one twice is said twice
  let seq = 0
  // the resume check under way (the seat page starts one whenever it loads its trip), if any
  let resuming: Promise<Reservation | undefined> | null = null
  const confirming = new Map<string, Promise<PaymentResult | undefined>>()

  const phase = computed<BookingPhase>(() => {
    const r = booking.value
    if (!r) return 'form'
    if (r.status === reservationStatus.sold) return 'sold'
    if (r.status === reservationStatus.booked && r.expirationTime && Date.parse(r.expirationTime) > clock.value) return 'booked'
    return 'ended'
  })
  const canExtend = computed(() => {
    const r = booking.value
    if (phase.value !== 'booked' || !r?.expirationTime || !r.maxExpirationTime) return false
    return Date.parse(r.maxExpirationTime) - Date.parse(r.expirationTime) >= 1000
  })
  const canPay = computed(() => phase.value === 'booked' && busy.value === null && !redirecting.value)
  const insufficientBalance = computed(() => error.value?.code === 'INSUFFICIENT_BALANCE')
  const amountDue = computed(() => {
    const r = booking.value
    const back = r?.roundTrip?.leg === 'outbound' && !outboundOnly.value ? r.roundTrip.other : null
    const live = back?.status === reservationStatus.booked && !!back.expirationTime && Date.parse(back.expirationTime) > clock.value
    return (r?.fare.total ?? 0) + (live ? back.total : 0)
  })

  const announce = (id: string, values?: Record<string, string | number>) => {
    announcement.value = { id, values, seq: ++seq }
  }

  /** Shows `r` (on the seat page, its hold follows: src/models/hold.ts). */
  const adopt = (r: Reservation) => {
    batch(() => {
      booking.value = r
      clock.value = now()
    })
    // a sold ticket opens offline later (saved-tickets.ts): kept once the page has shown it
    const owner = session.passenger.value?.id ?? null
    afterPageShown(() => void keepTicketsLater(session, owner, [r]))
  }

  const refreshBalance = async () => {
    const p = session.passenger.value
    if (!p) return
    try {
      session.updatePassenger(await call('profile', { params: { id: p.id } }))
    } catch {
      // the balance shown stays as it was; the profile page loads it again
    }
  }

  const tick = () => {
    const before = phase.peek()
    clock.value = now()
    if (before === 'booked' && phase.peek() === 'ended' && booking.peek()?.status === reservationStatus.booked) announce('booking.announceExpired')
  }

  const resetBooking = () => {
    confirming.clear()
    batch(() => {
      booking.value = null
      busy.value = null
      error.value = null
      announcement.value = null
      paymentResult.value = null
      redirecting.value = false
      outboundOnly.value = false
      clock.value = now()
    })
  }

  const confirmPayment = (paymentId: string, outcome: 'success' | 'failure') => {
    const key = `${outcome}:${paymentId}`
    const running = confirming.get(key)
    if (running) return running
    const task = (async () => {
      batch(() => {
        busy.value = 'confirm'
        error.value = null
        paymentResult.value = null
        redirecting.value = false
      })
      try {
        const res = await call(outcome === 'success' ? 'paymentSuccess' : 'paymentFailure', { body: resultRequest(paymentId) })
        if (res.reservation) await keepTicketsLater(session, session.passenger.value?.id ?? null, [res.reservation], paymentId)
        batch(() => {
          paymentResult.value = res
          // the status alone (not this tab's payment, not signed in as its payer): no booking to show
          if (res.reservation || !res.full) booking.value = res.reservation
          clock.value = now()
        })
        const p = session.passenger.value
        if (p && res.balance !== null) session.updatePassenger({ ...p, balance: res.balance })
        if (res.reservation?.status === reservationStatus.sold) announce('booking.announcePaid', { pnr: res.reservation.pnr ?? '' })
        else if (res.status === 'DECLINED') announce('booking.announceDeclined')
        else if (res.status === 'REVIEW') announce('booking.announceReview')
        return res
      } catch (err) {
        confirming.delete(key)
        error.value = { scope: 'confirm', ...requestError(err) }
        return undefined
      } finally {
        busy.value = null
      }
    })()
    confirming.set(key, task)
    return task
  }

  // a paid booking (the success page's ticket, with its PIN) is not the next person's after a LOGOUT or a 401
  whenPassengerLeaves(session, resetBooking)

  return {
    booking,
    busy,
    error,
    announcement,
    paymentResult,
    redirecting,
    phase,
    canExtend,
    canPay,
    insufficientBalance,
    amountDue,
    outboundOnly,

    payOutboundOnly() {
      batch(() => {
        outboundOnly.value = true
        error.value = null
      })
    },

    async book(input) {
      const body = {
        tripId: input.tripId,
        seatNames: input.seatNames,
        boardingStationId: input.boardingStationId,
        droppingStationId: input.droppingStationId,
        passengerName: input.passengerName.trim(),
        passengerMobile: input.passengerMobile.trim(),
        passengerEmail: input.passengerEmail?.trim() || null,
        ...(input.outboundReservationId ? { outboundReservationId: input.outboundReservationId } : {}),
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
    },

    async resume(tripId) {
      const current = booking.value
      if (current && current.tripId === tripId && phase.value === 'booked') return current
      if (!session.isSignedIn.value || busy.value !== null) return undefined
      busy.value = 'resume'
      const task = (async () => {
        try {
          const asked = now()
          const list = await call('myReservations')
          const live = list.find(
            (r) => r.tripId === tripId && r.status === reservationStatus.booked && !!r.expirationTime && Date.parse(r.expirationTime) > asked,
          )
          if (live) adopt(live)
          else if (current && current.tripId !== tripId) booking.value = null
          return live
        } catch {
          // nothing to resume: the form is shown
          return undefined
        } finally {
          busy.value = null
        }
      })()
      resuming = task
      try {
        return await task
      } finally {
        if (resuming === task) resuming = null
      }
    },

    async extend() {
      const r = booking.value
      if (!r || !canExtend.value || !r.expirationTime || !r.maxExpirationTime) return undefined
      const wanted = Math.min(Date.parse(r.maxExpirationTime), Math.max(now(), Date.parse(r.expirationTime)) + EXTEND_MINUTES * 60_000)
      const body = { reservationId: r.id, expirationTime: new Date(wanted).toISOString() }
      const next = await run('extend', 'extend', () => call('extendBooking', { body }))
      if (!next) return undefined
      adopt(next)
      announce('booking.announceExtended', { expires: next.expirationTime ?? '' })
      return next.expirationTime ?? undefined
    },

    async applyCoupon(code) {
      const r = booking.value
      const couponCode = code.trim().toUpperCase()
      if (!r || phase.value !== 'booked') return false
      if (!couponCode) {
        error.value = { scope: 'coupon', code: 'INVALID_COUPON', reason: '' }
        return false
      }
      const next = await run('coupon', 'coupon', () => call('applyCoupon', { params: { reservationId: r.id, couponCode } }))
      if (!next) return false
      adopt(next)
      announce('booking.announceCoupon', { code: next.fare.couponCode ?? couponCode, discount: next.fare.discount, total: next.fare.total })
      return true
    },

    async removeCoupon() {
      const r = booking.value
      if (!r || phase.value !== 'booked' || !r.fare.couponCode) return false
      const couponCode = r.fare.couponCode
      const next = await run('coupon', 'coupon', () => call('removeCoupon', { params: { reservationId: r.id, couponCode } }))
      if (!next) return false
      adopt(next)
      announce('booking.announceCouponRemoved', { total: next.fare.total })
      return true
    },

    async payByCard(payWith: PayChoice = 'card') {
      const r = booking.value
      if (!r || !canPay.value) return undefined
      const body = { reservationId: r.id, payWith, ...(outboundOnly.value ? { outboundOnly: true } : {}) }
      const res = await run('card', 'payment', () => call('payment', { body }))
      if (!res) return undefined
      keepResultToken(res.paymentId, res.resultToken)
      const url = gatewayUrl(res.redirectUrl)
      redirecting.value = true
      announce('booking.announceRedirect')
      return url
    },

    async payFromBalance() {
      const r = booking.value
      if (!r || !canPay.value) return undefined
      const body = { reservationId: r.id, ...(outboundOnly.value ? { outboundOnly: true } : {}) }
      const sold = await run('balance', 'payment', () => call('payFromBalance', { body }))
      await refreshBalance()
      if (!sold) {
        if (error.value?.code === 'INSUFFICIENT_BALANCE') announce('booking.announceInsufficient')
        return undefined
      }
      adopt(sold)
      announce('booking.announcePaid', { pnr: sold.pnr ?? '' })
      return sold
    },

    async cancelBooking() {
      const r = booking.value
      if (!r || phase.value !== 'booked') return false
      const next = await run('cancel', 'cancel', () => call('cancelBooking', { body: { reservationId: r.id } }))
      if (!next) return false
      adopt(next)
      announce('booking.announceCanceled')
      return true
    },

    confirmPayment,

    recheckPayment(paymentId) {
      if (busy.value === 'confirm') return confirming.get(`success:${paymentId}`) ?? Promise.resolve(undefined)
      confirming.delete(`success:${paymentId}`)
      return confirmPayment(paymentId, 'success')
    },

    async loadBooking(id) {
      const current = booking.value
      if (current?.id === id) return current
      const r = await run('confirm', 'confirm', () => call('reservationById', { params: { id } }))
      if (r) adopt(r)
      return r
    },

    tick,

    startClock() {
      return every(1000, () => {
        if (booking.value?.status === reservationStatus.booked) tick()
      })
    },

    cancelRedirect() {
      redirecting.value = false
    },

    dismissError() {
      error.value = null
    },

    resetBooking,
  }
})
