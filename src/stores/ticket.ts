/**
 * Tickets (/ticket-operation): find one by PNR and PIN (anyone) or open one of
 * the signed-in passenger's by reservation id, resend its e-mail, and cancel
 * it with the SMS code (cancel initialize shows the refund and the policy; the
 * refund goes to the balance). Every ticket the server sends is kept on the
 * device for whoever opened it (saved-tickets.ts); when the server cannot answer,
 * their saved copy is shown instead, marked with its time. A ticket's own address is
 * `/ticket-operation?pnr=<PNR>`. Actions are the only writers; uvu runs this in
 * Node against `fakeApi` and `fakeClock`.
 */
import { batch, computed, signal } from '@preact/signals-react'
import { oneAtATime, type ScopedError } from './one-at-a-time.ts'
import type { CancelInitialize, Reservation } from '../../contract/schemas.ts'
import { reservationStatus } from '../../contract/values.ts'
import { isConnectionError } from '../api/api-error.ts'
import { call } from '../api/index.ts'
import { every, now } from '../lib/clock.ts'
import type { SavedTicket } from './saved-tickets.ts'
import { keepTicketsLater, savedTickets } from './saved-tickets-later.ts'
import { session } from '../app-models.ts'
import { whenPassengerLeaves } from '../models/session.ts'

/** PNR: 10 upper-case letters and digits. */
export const PNR_PATTERN = /^[A-Z0-9]{10}$/
/** PIN: 4 digits. */
export const PIN_PATTERN = /^\d{4}$/
/** Cancel code: 6 digits. */
export const OTP_PATTERN = /^\d{6}$/

/** The request running now. */
export type TicketBusy = 'find' | 'resend' | 'cancelInit' | 'cancel'
/** Which part of the page an error belongs to. */
export type TicketErrorScope = 'find' | 'resend' | 'cancel'

/** A server error: the catalogue code and the server's reason (fallback text). */
export type TicketError = ScopedError<TicketErrorScope>

/** Where a cancellation stands: not started, choosing the seats (a ticket of several), waiting for the SMS code, done. */
export type CancelStep = 'idle' | 'seats' | 'otp' | 'done'

/** Seats just cancelled on their own, and what comes back for them. */
export interface SeatsCanceled {
  seats: string
  refund: number
  toCard: boolean
}

/** A status change for the live region. */
export interface TicketAnnouncement {
  id: string
  values?: Record<string, string | number>
  seq: number
}

// ---------- state ----------

const ticketState = signal<Reservation | null>(null)
const busyState = signal<TicketBusy | null>(null)
const errorState = signal<TicketError | null>(null)
const run = oneAtATime(busyState, errorState)
const quoteState = signal<CancelInitialize | null>(null)
const cancelStepState = signal<CancelStep>('idle')
const resendAtState = signal<number | null>(null)
const nowState = signal(now())
const emailSentState = signal(false)
const announcementState = signal<TicketAnnouncement | null>(null)
const savedAtState = signal<number | null>(null)
// the ticket link whose ticket is on screen (a second render does not ask again)
const linkState = signal<string | null>(null)
const cancelSeatsState = signal<string[] | null>(null)
const seatsCanceledState = signal<SeatsCanceled | null>(null)
let seq = 0

/** The ticket on screen. */
export const ticket = computed(() => ticketState.value)
export const busy = computed(() => busyState.value)
export const error = computed(() => errorState.value)
/** The refund quote and policy of cancel initialize. */
export const cancelQuote = computed(() => quoteState.value)
export const cancelStep = computed(() => cancelStepState.value)
/** The ticket e-mail was sent again. */
export const emailSent = computed(() => emailSentState.value)
export const announcement = computed(() => announcementState.value)
/** Seconds until another cancel code may be asked for. */
export const resendSecondsLeft = computed(() => {
  const at = resendAtState.value
  return at === null ? 0 : Math.max(0, Math.ceil((at - nowState.value) / 1000))
})
/** Only a ticket the passenger holds can be cancelled or e-mailed: sold, or moved by the operator to another coach (cancelled for the whole fare). */
export const isSold = computed(
  () => ticketState.value?.status === reservationStatus.sold || ticketState.value?.status === reservationStatus.tripMigrated,
)
/** The seats being cancelled on their own (null: the whole ticket). */
export const cancelSeats = computed(() => cancelSeatsState.value)
/** The seats the passenger has just cancelled on their own (the rest of the ticket stays). */
export const seatsCanceled = computed(() => seatsCanceledState.value)
/** When the ticket on screen is this device's saved copy: the time the server sent it (epoch ms); null for the server's answer. */
export const savedAt = computed(() => savedAtState.value)

// ---------- helpers ----------

function announce(id: string, values?: Record<string, string | number>): void {
  announcementState.value = { id, values, seq: ++seq }
}

/** Whose saved copies are read and written: the signed-in passenger's, or this tab's (null). */
const owner = (): number | null => session.passenger.value?.id ?? null

function show(r: Reservation, at: number | null = null): void {
  batch(() => {
    ticketState.value = r
    savedAtState.value = at
    quoteState.value = null
    cancelStepState.value = 'idle'
    cancelSeatsState.value = null
    seatsCanceledState.value = null
    resendAtState.value = null
    emailSentState.value = false
  })
}

/** Shows the server's answer and keeps a copy of it on the device. */
function showFresh(r: Reservation): Promise<void> {
  show(r)
  return keepTicketsLater(session, owner(), [r])
}

/** After a failed request: this device's copy when the server could not answer and `saved` finds one; else nothing. */
async function showSavedInstead(saved: (store: Awaited<ReturnType<typeof savedTickets>>) => SavedTicket | null): Promise<Reservation | undefined> {
  const copy = isConnectionError(errorState.value) ? saved(await savedTickets(session)) : null
  if (copy) show(copy.reservation, copy.savedAt)
  else ticketState.value = null
  return copy?.reservation
}

/** Normalises a typed PNR (spaces, lower case). */
export function normalisePnr(pnr: string): string {
  return pnr.replace(/\s+/g, '').toUpperCase()
}

/** Normalises a typed PIN: spaces, and Bengali digits (the ticket shows the PIN in the page's digits) as ASCII. */
export function normalisePin(pin: string): string {
  return pin.trim().replace(/[০-৯]/g, (d) => String(d.charCodeAt(0) - 0x09e6))
}

// ---------- actions ----------

/** Finds a ticket by PNR and PIN; WRONG_PNR_PIN is kept as the error. */
export async function findByPnr(pnr: string, pin: string): Promise<Reservation | undefined> {
  const p = normalisePnr(pnr)
  const n = normalisePin(pin)
  const r = await run('find', 'find', () => call('reservationByPnr', { params: { pnr: p, pin: n } }))
  // typing the PIN opens this tab's or account's copy, or one kept on this device
  if (!r) return showSavedInstead((s) => s.findWithPin(owner(), p, n))
  await showFresh(r)
  announce('ticket.announceFound', { pnr: r.pnr ?? p })
  return r
}

/**
 * Opens the ticket at its own address (`?pnr=`): the copy this account (or,
 * signed out, this tab) saved at once, then the server's answer, asked with the
 * saved PIN. False when they have no copy (the passenger types the PIN): another
 * account's or tab's copy is never shown, nor its PIN sent.
 */
export async function openSaved(pnr: string): Promise<boolean> {
  const p = normalisePnr(pnr)
  if (ticketState.value?.pnr === p && savedAtState.value === null) return true
  const copy = (await savedTickets(session)).findSavedTicket(owner(), { pnr: p })
  if (!copy?.reservation.pin) return false
  show(copy.reservation, copy.savedAt)
  const pin = copy.reservation.pin
  const r = await run('find', 'find', () => call('reservationByPnr', { params: { pnr: p, pin } }))
  if (r && ticketState.value?.pnr === p) await showFresh(r)
  return true
}

/**
 * Opens the ticket of the SMS's link (`/t?k=<token>`): the server's answer, without the PIN (it
 * cannot cancel), kept on this device for the link; offline, the copy this link opened before.
 * A tampered or revoked link is TICKET_LINK_INVALID.
 */
export async function openByLink(token: string): Promise<Reservation | undefined> {
  if (ticketState.value && linkState.value === token && savedAtState.value === null) return ticketState.value
  linkState.value = token
  const r = await run('find', 'find', () => call('ticketByLink', { params: { token } }))
  if (!r) return showSavedInstead((s) => s.findLinkTicket(token))
  show(r)
  await savedTickets(session).then(
    (s) => s.keepLinkTicket(token, r),
    () => undefined,
  )
  return r
}

/** Opens one of the signed-in passenger's tickets; RESERVATION_NOT_ACCESSIBLE when it is someone else's. */
export async function openById(id: number): Promise<Reservation | undefined> {
  if (ticketState.value?.id === id && savedAtState.value === null) return ticketState.value
  const r = await run('find', 'find', () => call('reservationById', { params: { id } }))
  if (!r) return showSavedInstead((s) => s.findSavedTicket(owner(), { id }))
  await showFresh(r)
  return r
}

/** Shows ticket `r` as its change to another trip left it (same PNR and PIN), and says so (`message`: what a booking's says). */
export async function showChanged(r: Reservation, message = 'dateChange.done'): Promise<void> {
  await showFresh(r)
  announce(message)
}

/** Sends the ticket e-mail again. */
export async function resendEmail(): Promise<boolean> {
  const t = ticketState.value
  if (!t?.pnr || !t.pin) return false
  const ok = await run('resend', 'resend', () => call('resendReservationEmail', { params: { pnr: t.pnr!, pin: t.pin! } }))
  if (!ok) return false
  emailSentState.value = true
  announce('ticket.announceEmailSent')
  return true
}

/** Starts cancelling some seats of a ticket of several: the passenger chooses which, then startCancel quotes them. */
export function chooseSeats(): void {
  if ((ticketState.value?.seats.length ?? 0) < 2) return
  batch(() => {
    cancelStepState.value = 'seats'
    seatsCanceledState.value = null
  })
}

/** The `seats` query of a cancel: only when some, not all, of the ticket's seats are chosen. */
function seatsQuery(t: Reservation, seats: string[] | null): { seats?: string } {
  return seats && seats.length < t.seats.length ? { seats: seats.join(',') } : {}
}

/** Cancel initialize for `seats` (default: the whole ticket): the refund quote and policy; the SMS code goes to the passenger's mobile. */
export async function startCancel(seats: string[] | null = cancelSeatsState.value): Promise<CancelInitialize | undefined> {
  const t = ticketState.value
  if (!t?.pnr || !t.pin) return undefined
  const query = seatsQuery(t, seats)
  const q = await run('cancelInit', 'cancel', () => call('cancelInitialize', { params: { pnr: t.pnr!, pin: t.pin! }, query }))
  if (!q) return undefined
  const at = now()
  batch(() => {
    cancelSeatsState.value = query.seats ? query.seats.split(',') : null
    seatsCanceledState.value = null
    quoteState.value = q
    cancelStepState.value = 'otp'
    nowState.value = at
    resendAtState.value = at + q.resendAfterSeconds * 1000
  })
  announce('ticket.announceOtpSent', { to: q.otpSentTo })
  return q
}

/** Asks for another cancel code once the resend wait is over. */
export async function resendCancelCode(): Promise<boolean> {
  if (resendSecondsLeft.value > 0) return false
  return (await startCancel()) !== undefined
}

/** Cancels with the SMS code: the refund goes to the balance and the seats are free again. */
export async function confirmCancel(otp: string): Promise<Reservation | undefined> {
  const t = ticketState.value
  const code = otp.trim()
  if (!t?.pnr || !t.pin || cancelStepState.value !== 'otp') return undefined
  if (!OTP_PATTERN.test(code)) {
    errorState.value = { scope: 'cancel', code: 'INVALID_OTP_PROVIDED', reason: '' }
    return undefined
  }
  const query = seatsQuery(t, cancelSeatsState.value)
  const quoted = quoteState.value
  const r = await run('cancel', 'cancel', () => call('cancel', { params: { pnr: t.pnr!, pin: t.pin!, otp: code }, query }))
  if (!r) return undefined
  const kept = keepTicketsLater(session, owner(), [r])
  if (query.seats && (r.status === reservationStatus.sold || r.status === reservationStatus.tripMigrated)) {
    // the rest of the ticket stays: shown again, with what was cancelled and what comes back
    const done = { seats: query.seats.replaceAll(',', ', '), refund: quoted?.refundAmount ?? 0, toCard: quoted?.refundTo === 'CARD' }
    show(r)
    // said by the page's status message (a live region), so not announced here as well
    seatsCanceledState.value = done
    await kept
    return r
  }
  batch(() => {
    ticketState.value = r
    cancelStepState.value = 'done'
    resendAtState.value = null
    emailSentState.value = false
  })
  announce(r.refund?.to === 'CARD' ? 'ticket.announceCanceledCard' : 'ticket.announceCanceled', {
    refund: r.refundAmount ?? 0,
    place: r.paidWith ?? 'card',
  })
  const p = session.passenger.value
  if (p) {
    try {
      session.updatePassenger(await call('profile', { params: { id: p.id } }))
    } catch {
      // the profile page loads the balance again
    }
  }
  await kept
  return r
}

/** Leaves the cancel step without cancelling. */
export function abandonCancel(): void {
  batch(() => {
    quoteState.value = null
    cancelStepState.value = 'idle'
    cancelSeatsState.value = null
    resendAtState.value = null
    if (errorState.value?.scope === 'cancel') errorState.value = null
  })
}

/** Moves the resend countdown on. */
export function tick(): void {
  nowState.value = now()
}

/** Runs the resend countdown while the cancel step is open; returns the disposer. */
export function startResendClock(): () => void {
  return every(1000, tick)
}

/** Clears the error shown. */
export function dismissError(): void {
  errorState.value = null
}

/** Back to the search form. */
export function resetTicket(): void {
  batch(() => {
    ticketState.value = null
    savedAtState.value = null
    linkState.value = null
    busyState.value = null
    errorState.value = null
    quoteState.value = null
    cancelStepState.value = 'idle'
    resendAtState.value = null
    emailSentState.value = false
    announcementState.value = null
  })
}

// the ticket on screen (with its PIN) is not the next person's after a LOGOUT or a 401
whenPassengerLeaves(session, resetTicket)
