/**
 * Seat choice, the hold: its countdown and the hold clock, Keep my seats, reset, its expiry, leaving
 * the page, and a booking taking the held seats (holdForBooking, endBookingHold). Nothing here calls
 * the booking store: the seat page links the two (seat-booking-link.ts), reacting to bookingHoldRanOut.
 */
import { batch, computed } from '@preact/signals-react'
import { HOLD_MINUTES, MAX_HOLD_MINUTES, MAX_SEATS } from '../../contract/values.ts'
import { call } from '../api/index.ts'
import { every, now } from '../lib/clock.ts'
import { forgetLocks, heldOrPending, lockBook, releaseSeats, tripGone } from './seat-locks.ts'
import {
  bookedHoldState,
  countedSeats,
  emit,
  expirationTimeState,
  extendBody,
  holdLimitState,
  isTripOmitted,
  lockBody,
  nowState,
  type SeatEvent,
  seatNamesState,
  seatSignal,
  tripDetailsState,
} from './seat-map.ts'
import * as ui from './ui.ts'

/** Milliseconds left on the hold, or null when nothing is held. */
export const holdMsLeft = computed(() => {
  const exp = expirationTimeState.value
  if (!exp || countedSeats.value.length === 0) return null
  return Math.max(0, Date.parse(exp) - nowState.value)
})
/** True in the last two minutes of a hold (WCAG 2.2.1 warning). */
export const holdEndingSoon = computed(() => {
  const left = holdMsLeft.value
  return left !== null && left > 0 && left <= 120_000
})
/** A booking's hold has run out (its seats are still frozen): the booking ends now, then hands them back. */
export const bookingHoldRanOut = computed(() => bookedHoldState.value && holdMsLeft.value === 0)

/** "Keep my seats" may ask for more time: a hold before booking that has extensions and time left before its maximum. */
export const canKeepSeats = computed(() => {
  if (bookedHoldState.value) return false
  const l = holdLimitState.value
  const exp = expirationTimeState.value
  if (!l || !exp) return true
  return l.left > 0 && Date.parse(l.max) - Date.parse(exp) >= 1000
})

/**
 * docs/spec.md section 4 reset: unlocks all held seats, clears the seats and sets
 * expirationTime to now. Not a booking's seats: they go back when the booking ends (the seat
 * page's reset cancels the booking, seat-booking-link.ts), and until then they stay frozen.
 */
export async function resetSeats(opts: { event?: SeatEvent['kind'] } = {}): Promise<void> {
  if (bookedHoldState.peek()) return
  const details = tripDetailsState.value
  const names = heldOrPending()
  const gen = ++lockBook.generation
  batch(() => {
    for (const n of seatNamesState.value) {
      const sig = seatSignal(n)
      if (sig && sig.value === 'selected') sig.value = 'available'
    }
    seatNamesState.value = []
    expirationTimeState.value = new Date(now()).toISOString()
    nowState.value = now()
    emit(opts.event ?? 'reset')
  })
  forgetLocks()
  if (details && names.length) {
    try {
      await call('seatLock', { body: lockBody(details, names.slice(0, MAX_SEATS), false) })
    } catch (err) {
      if (gen === lockBook.generation) ui.toastError(ui.messageForError(err))
    }
  }
}

/** Each "Keep my seats" asks for this much more time (capped at the hold's maximum), as a booking's Extend does. */
export const KEEP_MINUTES = 10

/**
 * Keeps the seats for longer (WCAG 2.2.1): asks the server to extend the hold
 * (POST /reservation/extendSeatLock: at most MAX_HOLD_EXTENSIONS times, never past
 * MAX_HOLD_MINUTES from when it was won) and says what it answered: the new end of
 * the hold, or that the seats cannot be held longer. Not a booking's hold (canKeepSeats):
 * the booking's Extend booking time moves that one.
 */
export async function extendHold(): Promise<void> {
  const details = tripDetailsState.value
  const names = countedSeats.value.map((s) => s.name)
  const exp = expirationTimeState.value
  if (!details || names.length === 0 || !exp || !canKeepSeats.value) return
  const limit = holdLimitState.value
  // before the first answer the maximum is counted from the hold as the server gave it
  const max = limit ? Date.parse(limit.max) : Date.parse(exp) + (MAX_HOLD_MINUTES - HOLD_MINUTES) * 60_000
  const wanted = Math.min(max, Math.max(now(), Date.parse(exp)) + KEEP_MINUTES * 60_000)
  const gen = lockBook.generation
  try {
    const res = await call('extendSeatLock', { body: extendBody(details, names, new Date(wanted).toISOString()) })
    if (gen !== lockBook.generation) return
    batch(() => {
      expirationTimeState.value = res.expirationTime
      holdLimitState.value = { max: res.maxExpirationTime, left: res.extensionsLeft }
      nowState.value = now()
      emit('extended', undefined, undefined, res.expirationTime)
    })
  } catch (err) {
    if (gen !== lockBook.generation) return
    const code = (err as { code?: unknown }).code
    if (isTripOmitted(err)) {
      tripGone()
      return
    }
    if (code === 'HOLD_EXTENSION_REFUSED' || code === 'INVALID_EXPIRATION_TIME') {
      // the hold runs to its end as it is (the server says when: another tab may have extended it); the hold
      // warning says so and offers no Keep my seats, or, when that end is further off, the live region does
      const until = (err as { values?: { until?: unknown } }).values?.until
      const end = typeof until === 'string' && Date.parse(until) > Date.parse(exp) ? until : exp
      batch(() => {
        holdLimitState.value = { max: end, left: 0 }
        expirationTimeState.value = end
        nowState.value = now()
        if (!holdEndingSoon.value) emit('extendRefused', undefined, undefined, end)
      })
    } else if (code === 'BOOKING_TIME_EXCEED') {
      // the hold is gone on the server: treat like a lost lock (its dialog says so)
      await resetSeats({ event: 'lockLost' })
      ui.showError({ id: 'seat.lockLost', values: { names: names.join(', ') } })
    } else ui.toastError(ui.messageForError(err))
  }
}

let keepOnLeave = false

/** The next navigation away keeps the held seats (e.g. the login handoff of the booking step). */
export function keepSeatsOnLeave(): void {
  keepOnLeave = true
}

/** The seat page is going away: release the held seats unless keepSeatsOnLeave was called. */
export function leavePage(): void {
  if (keepOnLeave) {
    keepOnLeave = false
    return
  }
  void releaseSeats()
}

/** The hold ran out: reset and tell the passenger. */
export async function expireHold(): Promise<void> {
  if (countedSeats.value.length === 0) return
  const booked = bookedHoldState.peek()
  bookedHoldState.value = false
  await resetSeats({ event: 'expired' })
  // said once: a booking's end by the booking (its live region), a hold's by this notification
  if (!booked) ui.toastInfo({ id: 'seatChoice.holdExpired' })
}

/**
 * The held seats became a booking: the server spent their locks, so nothing is
 * released on leave, the selection is frozen and the hold runs to the booking's
 * expiry.
 */
export function holdForBooking(names: string[], expiration: string | null): void {
  setHold(names, expiration, true)
}

/** The booking ended (paid, cancelled, expired): its seats are no longer chosen here, and choosing is free again. */
export function endBookingHold(): void {
  setHold([], null, false)
}

function setHold(names: string[], expiration: string | null, booked: boolean): void {
  lockBook.generation++
  forgetLocks()
  const keep = names.filter((n) => !!seatSignal(n))
  batch(() => {
    for (const n of seatNamesState.value) {
      const sig = seatSignal(n)
      if (sig && sig.value === 'selected' && !keep.includes(n)) sig.value = 'available'
    }
    for (const n of keep) seatSignal(n)!.value = 'selected'
    seatNamesState.value = keep
    bookedHoldState.value = booked
    holdLimitState.value = null
    expirationTimeState.value = expiration
    nowState.value = now()
  })
}

/**
 * Runs the hold clock: ticks `now` every second while seats are held and
 * expires the hold when its time is up. Returns the disposer.
 */
export function startHoldClock(): () => void {
  return every(1000, () => {
    if (countedSeats.value.length === 0) return
    nowState.value = now()
    if (holdMsLeft.value === 0) void expireHold()
  })
}

/** Moves the hold clock (tests, and after the tab wakes up). */
export function tick(): void {
  nowState.value = now()
  if (holdMsLeft.value === 0 && countedSeats.value.length > 0) void expireHold()
}
