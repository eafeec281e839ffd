import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Button } from '../../../design-system/button/index.ts'
import { TextField } from '../../../design-system/text-field/index.ts'
import { useT } from '../../app/use-t.ts'
import { focusIdWhenShown } from '../../lib/focus.ts'
import { validateEmail, validateMobile, required, type FieldErrors } from '../../lib/validation.ts'
import { useBooking } from '../../parts/use-booking.ts'
import { useSeatPage } from './use-seat-page.ts'
import { ServerError, form, useMaybeT } from '../../parts/form-parts.tsx'
import { useForm } from '../../parts/use-form.ts'
import { FIELD_MAX } from '../../../contract/values.ts'
import { navigate } from '../../router.ts'
import { session } from '../../app-models.ts'

/** The per-date cap's refusal (SEAT_LIMIT_EXCEEDED with scope date) says the cap and what is left. */
const DATE_CAP = { SEAT_LIMIT_EXCEEDED: 'booking.dateCapExceeded' }

type Fields = { passengerName: string; passengerMobile: string; passengerEmail: string }

function validate(v: Fields): FieldErrors<keyof Fields> {
  return {
    passengerName: required(v.passengerName, 'validation.fullNameRequired'),
    passengerMobile: validateMobile(v.passengerMobile),
    passengerEmail: validateEmail(v.passengerEmail, { optional: true }),
  }
}

/** Passenger name, mobile and e-mail (pre-filled from the profile), then Book. */
export function BookingForm() {
  useSignals()
  const seatChoice = useSeatPage()
  const booking = useBooking()
  const t = useT()
  const mt = useMaybeT()
  const p = session.passenger.value
  const f = useForm<Fields>({ passengerName: p?.fullName ?? '', passengerMobile: p?.mobile ?? '', passengerEmail: p?.email ?? '' }, (v) => {
    const e = validate(v)
    return Object.fromEntries(Object.entries(e).filter(([, m]) => m)) as FieldErrors<keyof Fields>
  })
  const seats = seatChoice.countedSeats.value
  const boarding = seatChoice.departureScheduleId.value
  const dropping = seatChoice.arrivalScheduleId.value
  const details = seatChoice.tripDetails.value
  // Book pressed while a seat's lock is still on its way: the button says it is booking meanwhile
  const [awaitingLocks, setAwaitingLocks] = useState(false)
  const pending = booking.busy.value === 'book' || awaitingLocks
  const missing = seats.length === 0 ? 'booking.chooseSeatsFirst' : boarding === null || dropping === null ? 'booking.chooseCounters' : null
  const error = booking.error.value?.scope === 'book' ? booking.error.value : null

  const submit = f.submit(async (v) => {
    if (pending || missing || !details || boarding === null || dropping === null) return
    // a seat chosen a moment ago may still be on its way to the server: book once its lock has answered
    setAwaitingLocks(true)
    try {
      await seatChoice.locksSettled()
    } finally {
      setAwaitingLocks(false)
    }
    const held = seatChoice.countedSeats.peek()
    if (held.length === 0) return
    const done = await booking.book({
      tripId: details.tripId,
      seatNames: held.map((s) => s.name),
      boardingStationId: boarding,
      droppingStationId: dropping,
      passengerName: v.passengerName,
      passengerMobile: v.passengerMobile,
      passengerEmail: v.passengerEmail,
      outboundReservationId: Number(new URLSearchParams(location.search).get('outbound')) || undefined,
    })
    // a round trip's return leg is booked: both are paid on the outbound's page
    const out = done?.roundTrip?.leg === 'return' ? done.roundTrip.other : null
    if (out) return navigate(`/reservation?tripId=${out.tripId}&from=${out.origin.code}&to=${out.destination.code}&date=${out.tripDate}`)
    // the form gives way to the booking to pay: its heading says so
    if (done) focusIdWhenShown('booking-heading')
    const code = booking.error.value?.code
    // someone else took a seat, or the hold ran out: show the seat map as it is now
    if (!done && (code === 'SEAT_UNAVAILABLE' || code === 'BOOKING_TIME_EXCEED' || code === 'SEAT_HOLD_ENDED')) {
      const ref = seatChoice.tripRef.value
      if (ref) void seatChoice.loadTrip(ref)
    }
  })

  return (
    <form ref={f.formRef} className={form.root} noValidate onSubmit={submit} aria-labelledby="booking-heading">
      <TextField
        label={t('booking.passengerName')}
        autoComplete="name"
        requiredMark
        maxLength={FIELD_MAX.passengerName}
        {...f.bind('passengerName')}
        error={mt(f.shown('passengerName'))}
      />
      <TextField
        label={t('booking.passengerMobile')}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        requiredMark
        maxLength={14}
        {...f.bind('passengerMobile')}
        error={mt(f.shown('passengerMobile'))}
      />
      <TextField
        label={t('booking.passengerEmail')}
        hint={t('booking.emailHint')}
        type="email"
        autoComplete="email"
        maxLength={FIELD_MAX.email}
        {...f.bind('passengerEmail')}
        error={mt(f.shown('passengerEmail'))}
      />
      <div role="status" aria-atomic="true">
        {missing ? <p className={form.intro}>{t(missing)}</p> : null}
      </div>
      <ServerError error={error} ids={error?.values?.scope === 'date' ? DATE_CAP : undefined} />
      <div className={form.actions}>
        <Button type="submit" aria-disabled={pending || !!missing || undefined}>
          {pending ? t('booking.booking') : t('booking.book')}
        </Button>
      </div>
    </form>
  )
}
