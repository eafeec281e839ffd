/**
 * The hold of one seat-page visit: its countdown and the hold clock, Keep my seats, its expiry, and,
 * while the page's booking step is shown, the link to the booking model (a booking of the trip holds
 * its seats here; the hold running out ends it). The page makes it with the seat map (its code loads
 * with the seat map's, not before) over the visit's seat page model, and disposes it with the seat map.
 */
import { batch, computed, createModel, effect, type ModelConstructor, type ReadonlySignal, signal, untracked } from '@preact/signals-core'
import { HOLD_MINUTES, MAX_HOLD_MINUTES } from '../../contract/values.ts'
import { call } from '../api/index.ts'
import { every, now } from '../lib/clock.ts'
import { messageForError, type Notices } from './ui.ts'
import { extendBody, isTripOmitted } from './seat-map.ts'
import type { SeatPage } from './seat-page.ts'

/** Each "Keep my seats" asks for this much more time (capped at the hold's maximum), as a booking's Extend does. */
export const KEEP_MINUTES = 10

/** What the hold needs of the booking model: its reservation, its phase, its clock and its cancel. */
export interface BookingLink {
  booking: ReadonlySignal<{ tripId: number; seats: { name: string }[]; expirationTime: string | null } | null>
  phase: ReadonlySignal<'form' | 'booked' | 'sold' | 'ended'>
  /** Moves the booking's clock: a booking whose time is up ends. */
  tick(): void
  cancelBooking(): Promise<unknown>
}

/** The hold's countdown and actions. */
export interface Hold {
  /** Milliseconds left on the hold, or null when nothing is held. */
  holdMsLeft: ReadonlySignal<number | null>
  /** True in the last two minutes of a hold (WCAG 2.2.1 warning). */
  holdEndingSoon: ReadonlySignal<boolean>
  /** A booking's hold has run out (its seats are still frozen): the booking ends now, then hands them back. */
  bookingHoldRanOut: ReadonlySignal<boolean>
  /** "Keep my seats" may ask for more time: a hold before booking that has extensions and time left before its maximum. */
  canKeepSeats: ReadonlySignal<boolean>
  /** The booking model linked now (the page's booking step is shown), or null. */
  linkedBooking: ReadonlySignal<BookingLink | null>
  /**
   * Keeps the seats for longer (WCAG 2.2.1): asks the server to extend the hold (at most
   * MAX_HOLD_EXTENSIONS times, never past MAX_HOLD_MINUTES from when it was won) and says what it
   * answered: the new end of the hold, or that the seats cannot be held longer.
   */
  extendHold(): Promise<void>
  /** The hold ran out: reset and tell the passenger. */
  expireHold(): Promise<void>
  /** The held seats became a booking: nothing is released on leave, the selection is frozen and the hold runs to the booking's expiry. */
  holdForBooking(names: string[], expiration: string | null): void
  /** The booking ended (paid, cancelled, expired): its seats are no longer chosen here, and choosing is free again. */
  endBookingHold(): void
  /** Moves the hold clock (tests, and after the tab wakes up); resolves once a hold it ended is reset. */
  tick(): Promise<void>
  /** The seat page's reset (docs/spec.md section 4): a booking's seats are given back by cancelling the booking. */
  resetSeats(): Promise<void>
  /** Links the booking model while the page's booking step is shown (null: unlinked). */
  linkBooking(booking: BookingLink | null): void
}

/** Creates the hold of a visit's seat page, its notices given through `ui`; its clock ticks every second while seats are held. */
export const HoldModel: ModelConstructor<Hold, [SeatPage, Notices]> = createModel((page: SeatPage, ui: Notices): Hold => {
  const linkedBooking = signal<BookingLink | null>(null)
  const holdMsLeft = computed(() => {
    const exp = page.expirationTime.value
    if (!exp || page.countedSeats.value.length === 0) return null
    return Math.max(0, Date.parse(exp) - page.clockNow.value)
  })
  const holdEndingSoon = computed(() => {
    const left = holdMsLeft.value
    return left !== null && left > 0 && left <= 120_000
  })
  const bookingHoldRanOut = computed(() => page.heldForBooking.value && holdMsLeft.value === 0)
  const canKeepSeats = computed(() => {
    if (page.heldForBooking.value) return false
    const l = page.holdLimit.value
    const exp = page.expirationTime.value
    if (!l || !exp) return true
    return l.left > 0 && Date.parse(l.max) - Date.parse(exp) >= 1000
  })

  const expireHold = async () => {
    if (page.countedSeats.peek().length === 0) return
    const booked = page.heldForBooking.peek()
    page.unbook()
    await page.resetSeats('expired')
    // said once: a booking's end by the booking (its live region), a hold's by this notification
    if (!booked) ui.toastInfo({ id: 'seatChoice.holdExpired' })
  }

  const holdForBooking = (names: string[], expiration: string | null) => page.holdSeats(names, expiration, true)
  const endBookingHold = () => page.holdSeats([], null, false)

  const holding = computed(() => page.countedSeats.value.length > 0)
  // the hold clock: ticks every second while seats are held and expires the hold when its time is up
  // (no timer otherwise: a model made and never disposed, as in the build's prerender, keeps nothing running)
  effect(() => {
    if (!holding.value) return
    return every(1000, () => {
      if (page.countedSeats.peek().length === 0) return
      page.tickClock()
      if (holdMsLeft.peek() === 0) void expireHold()
    })
  })

  // the booking step is shown: an unpaid booking of the trip on the page holds its seats there, frozen,
  // on the booking's clock, again after each fresh trip-details answer (which shows them as booked);
  // when it is paid, cancelled or runs out, the seats go back, and when it ends unpaid, the seat map is
  // read again
  effect(() => {
    const b = linkedBooking.value
    if (!b) return
    const last = { phase: b.phase.peek() }
    const stopHold = effect(() => {
      const r = b.booking.value
      const phase = b.phase.value
      const shownTrip = page.tripDetails.value?.tripId
      untracked(() => {
        const endedUnpaid = last.phase === 'booked' && phase === 'ended'
        last.phase = phase
        if (!r) return
        if (shownTrip === r.tripId) {
          if (phase === 'booked')
            holdForBooking(
              r.seats.map((s) => s.name),
              r.expirationTime,
            )
          else if (page.heldForBooking.peek()) endBookingHold()
        }
        // the seats the booking held are free again: show the seat map as it is now
        const ref = page.tripRef.peek()
        if (endedUnpaid && ref && ref.tripId === r.tripId) void page.loadTrip(ref)
      })
    })
    // the hold on the seat page running out ends the booking then and there, rather than up to a second later on its own clock
    const stopExpiry = effect(() => {
      if (bookingHoldRanOut.value) untracked(b.tick)
    })
    return () => {
      stopHold()
      stopExpiry()
    }
  })

  return {
    holdMsLeft,
    holdEndingSoon,
    bookingHoldRanOut,
    canKeepSeats,
    linkedBooking,
    async extendHold() {
      const details = page.tripDetails.peek()
      const names = page.countedSeats.peek().map((s) => s.name)
      const exp = page.expirationTime.peek()
      if (!details || names.length === 0 || !exp || !canKeepSeats.peek()) return
      const limit = page.holdLimit.peek()
      // before the first answer the maximum is counted from the hold as the server gave it
      const max = limit ? Date.parse(limit.max) : Date.parse(exp) + (MAX_HOLD_MINUTES - HOLD_MINUTES) * 60_000
      const wanted = Math.min(max, Math.max(now(), Date.parse(exp)) + KEEP_MINUTES * 60_000)
      const gen = page.generation()
      try {
        const res = await call('extendSeatLock', { body: extendBody(details, names, new Date(wanted).toISOString(), page.tripRef.peek()?.outbound) })
        if (gen !== page.generation()) return
        page.extended(res.expirationTime, { max: res.maxExpirationTime, left: res.extensionsLeft }, 'extended')
      } catch (err) {
        if (gen !== page.generation()) return
        const code = (err as { code?: unknown }).code
        if (isTripOmitted(err)) {
          page.tripGone()
          return
        }
        if (code === 'HOLD_EXTENSION_REFUSED' || code === 'INVALID_EXPIRATION_TIME') {
          // the hold runs to its end as it is (the server says when: another tab may have extended it); the hold
          // warning says so and offers no Keep my seats, or, when that end is further off, the live region does
          const until = (err as { values?: { until?: unknown } }).values?.until
          const end = typeof until === 'string' && Date.parse(until) > Date.parse(exp) ? until : exp
          batch(() => {
            page.extended(end, { max: end, left: 0 }, null)
            if (!holdEndingSoon.peek()) page.say({ kind: 'extendRefused', until: end })
          })
        } else if (code === 'BOOKING_TIME_EXCEED') {
          // the hold is gone on the server: treat like a lost lock (its dialog says so)
          await page.resetSeats('lockLost')
          ui.showError({ id: 'seat.lockLost', values: { names: names.join(', ') } })
        } else ui.toastError(messageForError(err))
      }
    },
    expireHold,
    holdForBooking,
    endBookingHold,
    async tick() {
      page.tickClock()
      // after this action's batch: a booking's hold running out is heard (bookingHoldRanOut) before the hold resets
      await Promise.resolve()
      if (holdMsLeft.peek() === 0 && page.countedSeats.peek().length > 0) await expireHold()
    },
    async resetSeats() {
      const b = linkedBooking.peek()
      if (page.heldForBooking.peek() && b) await b.cancelBooking()
      else await page.resetSeats()
    },
    linkBooking(booking) {
      linkedBooking.value = booking
    },
  }
})
