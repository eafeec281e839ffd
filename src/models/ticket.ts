/**
 * Tickets (/ticket-operation): find one by PNR and PIN (anyone) or open one of
 * the signed-in passenger's by reservation id, resend its e-mail, and cancel
 * it with the SMS code (cancel initialize shows the refund and the policy; the
 * refund goes to the balance). Every ticket the server sends is kept on the
 * device for whoever opened it (saved-tickets.ts); when the server cannot answer,
 * their saved copy is shown instead, marked with its time. A ticket's own address is
 * `/ticket-operation?pnr=<PNR>`. One per visit of the page; actions are the only
 * writers; uvu makes a fresh instance in Node against `fakeApi` and `fakeClock`.
 */
import { batch, computed, createModel, type ModelConstructor, type ReadonlySignal, signal } from '@preact/signals-core'
import type { CancelInitialize, Reservation } from '../../contract/schemas.ts'
import { reservationStatus } from '../../contract/values.ts'
import { isConnectionError } from '../api/api-error.ts'
import { call } from '../api/index.ts'
import { every, now } from '../lib/clock.ts'
import { oneAtATime, type ScopedError } from '../stores/one-at-a-time.ts'
import type { SavedTicket } from '../stores/saved-tickets.ts'
import { keepTicketsLater, savedTickets } from '../stores/saved-tickets-later.ts'
import { type Session, whenPassengerLeaves } from './session.ts'

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
  /** Where each part of the refund went, as quoted (cancelInitialize's refundParts). */
  parts?: CancelInitialize['refundParts']
}

/** A status change for the live region. */
export interface TicketAnnouncement {
  id: string
  values?: Record<string, string | number>
  seq: number
}

/** Normalises a typed PNR (spaces, lower case). */
export function normalisePnr(pnr: string): string {
  return pnr.replace(/\s+/g, '').toUpperCase()
}

/** Normalises a typed PIN: spaces, and Bengali digits (the ticket shows the PIN in the page's digits) as ASCII. */
export function normalisePin(pin: string): string {
  return pin.trim().replace(/[০-৯]/g, (d) => String(d.charCodeAt(0) - 0x09e6))
}

/** The ticket on screen and its cancellation (read-only), and the actions that change them. */
export interface Ticket {
  /** The ticket on screen. */
  ticket: ReadonlySignal<Reservation | null>
  busy: ReadonlySignal<TicketBusy | null>
  error: ReadonlySignal<TicketError | null>
  /** The refund quote and policy of cancel initialize. */
  cancelQuote: ReadonlySignal<CancelInitialize | null>
  cancelStep: ReadonlySignal<CancelStep>
  /** The ticket e-mail was sent again. */
  emailSent: ReadonlySignal<boolean>
  announcement: ReadonlySignal<TicketAnnouncement | null>
  /** Seconds until another cancel code may be asked for. */
  resendSecondsLeft: ReadonlySignal<number>
  /** Only a ticket the passenger holds can be cancelled or e-mailed: sold, or moved by the operator to another coach (cancelled for the whole fare). */
  isSold: ReadonlySignal<boolean>
  /** The seats being cancelled on their own (null: the whole ticket). */
  cancelSeats: ReadonlySignal<string[] | null>
  /** The seats the passenger has just cancelled on their own (the rest of the ticket stays). */
  seatsCanceled: ReadonlySignal<SeatsCanceled | null>
  /** When the ticket on screen is this device's saved copy: the time the server sent it (epoch ms); null for the server's answer. */
  savedAt: ReadonlySignal<number | null>
  /** Finds a ticket by PNR and PIN; WRONG_PNR_PIN is kept as the error. */
  findByPnr(pnr: string, pin: string): Promise<Reservation | undefined>
  /**
   * Opens the ticket at its own address (`?pnr=`): the copy this account (or,
   * signed out, this tab) saved at once, then the server's answer, asked with the
   * saved PIN. False when they have no copy (the passenger types the PIN): another
   * account's or tab's copy is never shown, nor its PIN sent.
   */
  openSaved(pnr: string): Promise<boolean>
  /**
   * Opens the ticket of the SMS's link (`/t?k=<token>`): the server's answer, without the PIN (it
   * cannot cancel), kept on this device for the link; offline, the copy this link opened before.
   * A tampered or revoked link is TICKET_LINK_INVALID.
   */
  openByLink(token: string): Promise<Reservation | undefined>
  /** Opens one of the signed-in passenger's tickets; RESERVATION_NOT_ACCESSIBLE when it is someone else's. */
  openById(id: number): Promise<Reservation | undefined>
  /** Shows ticket `r` as its change to another trip left it (same PNR and PIN), and says so (`message`: what a booking's says). */
  showChanged(r: Reservation, message?: string): Promise<void>
  /** Sends the ticket e-mail again. */
  resendEmail(): Promise<boolean>
  /** Starts cancelling some seats of a ticket of several: the passenger chooses which, then startCancel quotes them. */
  chooseSeats(): void
  /** Cancel initialize for `seats` (default: the seats chosen, else the whole ticket): the refund quote and policy; the SMS code goes to the passenger's mobile. */
  startCancel(seats?: string[] | null): Promise<CancelInitialize | undefined>
  /** Asks for another cancel code once the resend wait is over. */
  resendCancelCode(): Promise<boolean>
  /** Cancels with the SMS code: the refund goes to the balance and the seats are free again. */
  confirmCancel(otp: string): Promise<Reservation | undefined>
  /** Leaves the cancel step without cancelling. */
  abandonCancel(): void
  /** Runs the resend countdown while the cancel step is open; returns the disposer. */
  startResendClock(): () => void
  /** Back to the search form: the ticket, its PIN and the cancellation are forgotten. */
  closeTicket(): void
}

/** The session a ticket is looked up and cancelled in. */
type TicketSession = Pick<Session, 'passenger' | 'updatePassenger' | 'savedTicketsSwept'>

/** Creates the ticket of a page visit in `session`; the ticket on screen (with its PIN) is forgotten when the passenger signs out or a 401 ends the session. */
export const TicketModel: ModelConstructor<Ticket, [TicketSession]> = createModel((session: TicketSession): Ticket => {
  const ticket = signal<Reservation | null>(null)
  const busy = signal<TicketBusy | null>(null)
  const error = signal<TicketError | null>(null)
  const run = oneAtATime(busy, error)
  const cancelQuote = signal<CancelInitialize | null>(null)
  const cancelStep = signal<CancelStep>('idle')
  const resendAt = signal<number | null>(null)
  const clock = signal(now())
  const emailSent = signal(false)
  const announcement = signal<TicketAnnouncement | null>(null)
  const savedAt = signal<number | null>(null)
  // the ticket link whose ticket is on screen (a second render does not ask again)
  const link = signal<string | null>(null)
  const cancelSeats = signal<string[] | null>(null)
  const seatsCanceled = signal<SeatsCanceled | null>(null)

  const resendSecondsLeft = computed(() => {
    const at = resendAt.value
    return at === null ? 0 : Math.max(0, Math.ceil((at - clock.value) / 1000))
  })
  const isSold = computed(() => ticket.value?.status === reservationStatus.sold || ticket.value?.status === reservationStatus.tripMigrated)

  let seq = 0
  const announce = (id: string, values?: Record<string, string | number>) => {
    announcement.value = { id, values, seq: ++seq }
  }

  /** Whose saved copies are read and written: the signed-in passenger's, or this tab's (null). */
  const owner = (): number | null => session.passenger.value?.id ?? null

  /** Shows `r` (`at`: the time of this device's copy; null: the server's answer), no cancellation under way. */
  const show = (r: Reservation | null, at: number | null = null) => {
    batch(() => {
      ticket.value = r
      savedAt.value = at
      cancelQuote.value = null
      cancelStep.value = 'idle'
      cancelSeats.value = null
      seatsCanceled.value = null
      resendAt.value = null
      emailSent.value = false
    })
  }

  /** Shows the server's answer and keeps a copy of it on the device. */
  const showFresh = (r: Reservation) => {
    show(r)
    return keepTicketsLater(session, owner(), [r])
  }

  /** After a failed request: this device's copy when the server could not answer and `saved` finds one; else nothing. */
  const showSavedInstead = async (saved: (store: Awaited<ReturnType<typeof savedTickets>>) => SavedTicket | null) => {
    const copy = isConnectionError(error.value) ? saved(await savedTickets(session)) : null
    if (copy) show(copy.reservation, copy.savedAt)
    else ticket.value = null
    return copy?.reservation
  }

  /** The `seats` query of a cancel: only when some, not all, of the ticket's seats are chosen. */
  const seatsQuery = (t: Reservation, seats: string[] | null): { seats?: string } =>
    seats && seats.length < t.seats.length ? { seats: seats.join(',') } : {}

  const startCancel = async (seats: string[] | null = cancelSeats.value) => {
    const t = ticket.value
    if (!t?.pnr || !t.pin) return undefined
    const query = seatsQuery(t, seats)
    const q = await run('cancelInit', 'cancel', () => call('cancelInitialize', { params: { pnr: t.pnr!, pin: t.pin! }, query }))
    if (!q) return undefined
    const at = now()
    batch(() => {
      cancelSeats.value = query.seats ? query.seats.split(',') : null
      seatsCanceled.value = null
      cancelQuote.value = q
      cancelStep.value = 'otp'
      clock.value = at
      resendAt.value = at + q.resendAfterSeconds * 1000
    })
    announce('ticket.announceOtpSent', { to: q.otpSentTo })
    return q
  }

  const closeTicket = () => {
    batch(() => {
      show(null)
      link.value = null
      busy.value = null
      error.value = null
      announcement.value = null
    })
  }

  // the ticket on screen (with its PIN) is not the next person's after a LOGOUT or a 401
  whenPassengerLeaves(session, closeTicket)

  return {
    ticket,
    busy,
    error,
    cancelQuote,
    cancelStep,
    emailSent,
    announcement,
    resendSecondsLeft,
    isSold,
    cancelSeats,
    seatsCanceled,
    savedAt,
    startCancel,
    closeTicket,

    async findByPnr(pnr, pin) {
      const p = normalisePnr(pnr)
      const n = normalisePin(pin)
      const r = await run('find', 'find', () => call('reservationByPnr', { params: { pnr: p, pin: n } }))
      // typing the PIN opens this tab's or account's copy, or one kept on this device
      if (!r) return showSavedInstead((s) => s.findWithPin(owner(), p, n))
      await showFresh(r)
      announce('ticket.announceFound', { pnr: r.pnr ?? p })
      return r
    },

    async openSaved(pnr) {
      const p = normalisePnr(pnr)
      if (ticket.value?.pnr === p && savedAt.value === null) return true
      const copy = (await savedTickets(session)).findSavedTicket(owner(), { pnr: p })
      if (!copy?.reservation.pin) return false
      show(copy.reservation, copy.savedAt)
      const pin = copy.reservation.pin
      const r = await run('find', 'find', () => call('reservationByPnr', { params: { pnr: p, pin } }))
      if (r && ticket.value?.pnr === p) await showFresh(r)
      return true
    },

    async openByLink(token) {
      if (ticket.value && link.value === token && savedAt.value === null) return ticket.value
      link.value = token
      const r = await run('find', 'find', () => call('ticketByLink', { params: { token } }))
      if (!r) return showSavedInstead((s) => s.findLinkTicket(token))
      show(r)
      await savedTickets(session).then(
        (s) => s.keepLinkTicket(token, r),
        () => undefined,
      )
      return r
    },

    async openById(id) {
      if (ticket.value?.id === id && savedAt.value === null) return ticket.value
      const r = await run('find', 'find', () => call('reservationById', { params: { id } }))
      if (!r) return showSavedInstead((s) => s.findSavedTicket(owner(), { id }))
      await showFresh(r)
      return r
    },

    async showChanged(r, message = 'dateChange.done') {
      await showFresh(r)
      announce(message)
    },

    async resendEmail() {
      const t = ticket.value
      if (!t?.pnr || !t.pin) return false
      const ok = await run('resend', 'resend', () => call('resendReservationEmail', { params: { pnr: t.pnr!, pin: t.pin! } }))
      if (!ok) return false
      emailSent.value = true
      announce('ticket.announceEmailSent')
      return true
    },

    chooseSeats() {
      if ((ticket.value?.seats.length ?? 0) < 2) return
      batch(() => {
        cancelStep.value = 'seats'
        seatsCanceled.value = null
      })
    },

    async resendCancelCode() {
      if (resendSecondsLeft.value > 0) return false
      return (await startCancel()) !== undefined
    },

    async confirmCancel(otp) {
      const t = ticket.value
      const code = otp.trim()
      if (!t?.pnr || !t.pin || cancelStep.value !== 'otp') return undefined
      if (!OTP_PATTERN.test(code)) {
        error.value = { scope: 'cancel', code: 'INVALID_OTP_PROVIDED', reason: '' }
        return undefined
      }
      const query = seatsQuery(t, cancelSeats.value)
      const quoted = cancelQuote.value
      const r = await run('cancel', 'cancel', () => call('cancel', { params: { pnr: t.pnr!, pin: t.pin!, otp: code }, query }))
      if (!r) return undefined
      const kept = keepTicketsLater(session, owner(), [r])
      if (query.seats && (r.status === reservationStatus.sold || r.status === reservationStatus.tripMigrated)) {
        // the rest of the ticket stays: shown again, with what was cancelled and what comes back
        const done = {
          seats: query.seats.replaceAll(',', ', '),
          refund: quoted?.refundAmount ?? 0,
          toCard: quoted?.refundTo === 'CARD',
          parts: quoted?.refundParts,
        }
        show(r)
        // said by the page's status message (a live region), so not announced here as well
        seatsCanceled.value = done
        await kept
        return r
      }
      batch(() => {
        ticket.value = r
        cancelStep.value = 'done'
        resendAt.value = null
        emailSent.value = false
      })
      // a refund split between places is said by the page's status message, part by part
      if ((quoted?.refundParts?.length ?? 0) < 2)
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
    },

    abandonCancel() {
      batch(() => {
        cancelQuote.value = null
        cancelStep.value = 'idle'
        cancelSeats.value = null
        resendAt.value = null
        if (error.value?.scope === 'cancel') error.value = null
      })
    },

    startResendClock() {
      return every(1000, () => {
        clock.value = now()
      })
    },
  }
})
