/**
 * Booking and payment, the state (booking.ts has the actions and is the public face): the booking on
 * screen, the request running and its error, the live region's announcement, the payment result.
 * Written only by booking.ts' actions and the verbs below.
 */
import { computed, signal } from '@preact/signals-react'
import type { PayChoice, PaymentResult, Reservation } from '../../contract/schemas.ts'
import { reservationStatus } from '../../contract/values.ts'
import { call } from '../api/index.ts'
import { config } from '../config.ts'
import { now } from '../lib/clock.ts'
import { oneAtATime, type ScopedError } from './one-at-a-time.ts'
import { keepResultToken } from './payment-tokens.ts'
import * as session from './session.ts'

// ---------- types ----------

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
}

/** Each extension asks for this much more time (capped at the booking's maximum). */
export const EXTEND_MINUTES = 10

// ---------- state ----------

export const bookingState = signal<Reservation | null>(null)
export const busyState = signal<BookingBusy | null>(null)
export const errorState = signal<BookingError | null>(null)
export const run = oneAtATime(busyState, errorState)
export const announcementState = signal<BookingAnnouncement | null>(null)
export const nowState = signal(now())
export const resultState = signal<PaymentResult | null>(null)
/** A card payment is on its way to the gateway (the page is about to leave). */
export const redirectingState = signal(false)
/** Numbers the announcements, so the same one twice is said twice. */
let seq = 0

/** The booking on screen (status 2 while unpaid, 1 once sold, 5 when ended). */
export const booking = computed(() => bookingState.value)
export const busy = computed(() => busyState.value)
export const error = computed(() => errorState.value)
/** The latest status change, for a polite live region. */
export const announcement = computed(() => announcementState.value)
/** The payment result the success / failure page confirmed. */
export const paymentResult = computed(() => resultState.value)
export const redirecting = computed(() => redirectingState.value)

export const phase = computed<BookingPhase>(() => {
  const r = bookingState.value
  if (!r) return 'form'
  if (r.status === reservationStatus.sold) return 'sold'
  if (r.status === reservationStatus.booked && r.expirationTime && Date.parse(r.expirationTime) > nowState.value) return 'booked'
  return 'ended'
})
/** The server still allows more time. */
export const canExtend = computed(() => {
  const r = bookingState.value
  if (phase.value !== 'booked' || !r?.expirationTime || !r.maxExpirationTime) return false
  return Date.parse(r.maxExpirationTime) - Date.parse(r.expirationTime) >= 1000
})
/** A pay button may be pressed: booked, nothing running, not leaving for the gateway. */
export const canPay = computed(() => phase.value === 'booked' && busyState.value === null && !redirectingState.value)
/** The last balance payment failed for want of balance. */
export const insufficientBalance = computed(() => errorState.value?.code === 'INSUFFICIENT_BALANCE')

export function announce(id: string, values?: Record<string, string | number>): void {
  announcementState.value = { id, values, seq: ++seq }
}

/** The gateway page URL: on the API's origin when the API is served from another one. */
export function gatewayUrl(redirectUrl: string, apiBase: string = config.apiBaseUrl): string {
  if (/^https?:\/\//i.test(redirectUrl)) return redirectUrl
  if (!/^https?:\/\//i.test(apiBase)) return redirectUrl
  return new URL(apiBase).origin + redirectUrl
}

export async function refreshBalance(): Promise<void> {
  const p = session.passenger.value
  if (!p) return
  try {
    session.updatePassenger(await call('profile', { params: { id: p.id } }))
  } catch {
    // the balance shown stays as it was; the profile page loads it again
  }
}

/** The page came back from the gateway without paying (browser back): the pay buttons work again. */
export function cancelRedirect(): void {
  redirectingState.value = false
}

/** Clears the error shown (the passenger edits the field again). */
export function dismissError(): void {
  errorState.value = null
}

/**
 * Pay on the gateway's page with a mobile wallet (bKash, Nagad, Rocket) or a card: opens (or reuses)
 * the booking's payment and answers the page the browser must open. Pressing again while this runs does nothing.
 */
export async function payByCard(payWith: PayChoice = 'card'): Promise<string | undefined> {
  const r = bookingState.value
  if (!r || !canPay.value) return undefined
  const res = await run('card', 'payment', () => call('payment', { body: { reservationId: r.id, payWith } }))
  if (!res) return undefined
  keepResultToken(res.paymentId, res.resultToken)
  const url = gatewayUrl(res.redirectUrl)
  redirectingState.value = true
  announce('booking.announceRedirect')
  return url
}
