import { type ReactNode, useEffect, useMemo, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { usePageShown } from '../../lib/page-shown.ts'
import { reservationStatus } from '../../../contract/values.ts'
import { isConnectionError } from '../../api/api-error.ts'
import { ButtonLink } from '../../../design-system/button/index.ts'
import { StatusMessage } from '../../../design-system/status/index.ts'
import { useT } from '../../app/use-t.ts'
import { formatMoney } from '../../lib/money.ts'
import { currentRoute } from '../../router.ts'
import type { Model } from '@preact/signals-core'
import { type Booking, BookingModel } from '../../models/booking.ts'
import { BookingContext } from '../../parts/use-booking.ts'
import { useVisitModel } from '../../parts/use-visit-model.ts'
import type { SavedTicket } from '../../stores/saved-tickets.ts'
import { savedTickets } from '../../stores/saved-tickets-later.ts'
import { loadEarly, takeEarlyLoad } from '../../lib/early-load.ts'
import { ServerError } from '../../parts/server-error.tsx'
import { PaymentPending } from '../../parts/payment-pending.tsx'
import { page } from '../../parts/page-styles.ts'
import { Announcer } from '../../parts/announcer.tsx'
import { TicketView } from '../../parts/ticket-view.tsx'
import { deferred } from '../../parts/deferred.tsx'
import { session, ui } from '../../app-models.ts'

/** `?paymentId=` from the gateway, or `?reservationId=` after paying from the balance. */
function readQuery(search: string): { paymentId: string | null; reservationId: number | null } {
  const q = new URLSearchParams(search)
  const paymentId = q.get('paymentId')
  const id = Number(q.get('reservationId'))
  return {
    paymentId: paymentId && /^[A-Za-z0-9_-]{1,100}$/.test(paymentId) ? paymentId : null,
    reservationId: Number.isInteger(id) && id > 0 ? id : null,
  }
}

type Query = ReturnType<typeof readQuery>

/** What the operator changed (a cancelled or moved trip): fetched only for such a ticket. */
const TicketChangeNote = deferred(() => import('../../parts/ticket-change-note.tsx').then((m) => m.TicketChangeNote))

const queryKey = (q: Query) => `paid:${q.paymentId}:${q.reservationId}`

/** Booking models made before the page rendered (startLoading), by address, for the page to take. */
const waiting = new Map<string, Model<Booking>>()

/** Confirms the card payment, or opens the booking paid from the balance. */
function load(booking: Booking, { paymentId, reservationId }: Query): void {
  if (paymentId) void booking.confirmPayment(paymentId, 'success')
  else if (reservationId) void booking.loadBooking(reservationId)
}

/**
 * Asks for the payment or booking of the address the app opened at, before the page renders (src/lib/early-load.ts):
 * the visit's booking model is made here, its load under way, and the page takes it.
 */
export function startLoading(search: string): void {
  const q = readQuery(search)
  const booking = new BookingModel(session)
  waiting.set(queryKey(q), booking)
  loadEarly(queryKey(q), () => load(booking, q))
}

/** The ticket `owner` (the signed-in passenger, or null: this tab) saved for the card payment or the booking of this page. */
function useSavedFor(when: boolean, owner: number | null, paymentId: string | null, reservationId: number | null): SavedTicket | null | undefined {
  // undefined while the saved-tickets store is on its way
  const [saved, setSaved] = useState<SavedTicket | null | undefined>(undefined)
  useEffect(() => {
    setSaved(undefined)
    if (!when) return
    let live = true
    savedTickets(session).then(
      ({ findSavedTicket }) => {
        if (live) setSaved(paymentId ? findSavedTicket(owner, { paymentId }) : reservationId ? findSavedTicket(owner, { id: reservationId }) : null)
      },
      () => live && setSaved(null),
    )
    return () => {
      live = false
    }
  }, [when, owner, paymentId, reservationId])
  return when ? saved : null
}

/**
 * /reservation/success: confirms the card payment with the server (or opens
 * the ticket paid from the balance) and shows the ticket with its PNR and PIN;
 * without an answer from the server, the copy this device kept.
 */
export default function ReservationSuccessPage() {
  useSignals()
  const t = useT()
  const lang = ui.language.value
  const search = currentRoute.value?.search ?? ''
  const { paymentId, reservationId } = useMemo(() => readQuery(search), [search])

  // this visit's booking: the one made for this address before the page rendered (left in `waiting` until the page
  // that stays takes it: a first render React throws away finds it too), or a new one
  const booking = useVisitModel(() => waiting.get(queryKey({ paymentId, reservationId })) ?? new BookingModel(session))

  useEffect(() => {
    const q = { paymentId, reservationId }
    const early = takeEarlyLoad(queryKey(q)) && waiting.get(queryKey(q)) === booking
    for (const m of waiting.values()) if (m !== booking) m[Symbol.dispose]()
    waiting.clear()
    if (!early) load(booking, q)
  }, [booking, paymentId, reservationId])

  const result = paymentId ? booking.paymentResult.value : null
  const r = paymentId
    ? result?.paymentId === paymentId
      ? result.reservation
      : null
    : booking.booking.value?.id === reservationId
      ? booking.booking.value
      : null
  // no answer from the server: the ticket this device kept when it was bought
  const saved = useSavedFor(isConnectionError(booking.error.value), session.passenger.value?.id ?? null, paymentId, reservationId)
  const loading =
    booking.busy.value === 'confirm' ||
    (!!paymentId && !result && !booking.error.value) ||
    (!!reservationId && !r && !booking.error.value) ||
    saved === undefined
  usePageShown(!loading)
  const sold = r?.status === reservationStatus.sold
  const ownPage = (pnr: string | null) => (pnr ? `/ticket-operation?pnr=${encodeURIComponent(pnr)}` : '/ticket-operation')

  let body: ReactNode
  if (!paymentId && !reservationId) {
    body = (
      <>
        <p>{t('payment.nothingToShow')}</p>
        <p>
          <ButtonLink href="/ticket-operation" variant="outline">
            {t('payment.findTicket')}
          </ButtonLink>
        </p>
      </>
    )
  } else if (loading) {
    body = (
      <p role="status" className={page.muted}>
        {t('payment.confirming')}
      </p>
    )
  } else if (saved) {
    body = (
      <>
        <ServerError error={booking.error.value} />
        <TicketView reservation={saved.reservation} heading={t('ticket.heading')} savedAt={saved.savedAt}>
          <ButtonLink href={ownPage(saved.reservation.pnr)} variant="outline">
            {t('payment.viewInTicketOperation')}
          </ButtonLink>
        </TicketView>
      </>
    )
  } else if (booking.error.value) {
    body = (
      <>
        <ServerError error={booking.error.value} />
        <p>
          <ButtonLink href="/ticket-operation" variant="outline">
            {t('payment.findTicket')}
          </ButtonLink>
        </p>
      </>
    )
  } else if (r && (sold || r.paidAt)) {
    // paid; or, opened again later, a paid ticket since moved or cancelled (by the operator or the passenger): its status
    // says so, and the note what the operator changed, as on the ticket's own page
    const viewHref = ownPage(r.pnr)
    body = (
      <>
        {sold ? <StatusMessage tone="success">{t('payment.successNote', { total: formatMoney(r.fare.total, lang) })}</StatusMessage> : null}
        <TicketView reservation={r} heading={t('ticket.heading')} change={r.status > 2 ? <TicketChangeNote r={r} lang={lang} /> : null}>
          <ButtonLink href={viewHref} variant="outline">
            {t('payment.viewInTicketOperation')}
          </ButtonLink>
        </TicketView>
      </>
    )
  } else if (result?.status === 'APPROVED') {
    // paid, but the booking had ended or its coupon was spent meanwhile: the server refunds it to the card (or the balance)
    // (or the status alone: not the tab that paid, its payer not signed in here, so no booking to tell about)
    body = (
      <StatusMessage tone="info">
        {t(result.full ? (result.reservation?.refund?.to === 'CARD' ? 'payment.paidLateCard' : 'payment.paidLate') : 'payment.wasApproved', {
          total: formatMoney(result.amount, lang),
          place: t('ticket.methodCard', { place: result.reservation?.paidWith ?? 'card' }),
        })}
      </StatusMessage>
    )
  } else if (result?.status === 'REVIEW') {
    // paid, but the gateway flagged it: an operator approves (ticket sent) or declines (refund)
    body = <StatusMessage tone="info">{t('payment.underReview')}</StatusMessage>
  } else if (result?.status === 'PENDING' && paymentId) {
    // the gateway could not confirm it yet: never offered as failed, it may well be paid
    body = <PaymentPending paymentId={paymentId} />
  } else {
    body = (
      <>
        <StatusMessage tone="error">{t(result?.status === 'DECLINED' ? 'payment.declined' : 'payment.pending')}</StatusMessage>
        {paymentId ? (
          <p>
            <ButtonLink href={`/reservation/failure?paymentId=${encodeURIComponent(paymentId)}`} variant="outline">
              {t('payment.tryAgain')}
            </ButtonLink>
          </p>
        ) : null}
      </>
    )
  }

  return (
    <BookingContext.Provider value={booking}>
      <h1 className={page.h1} tabIndex={-1}>
        {t('reservationSuccess.heading')}
      </h1>
      <Announcer announcement={booking.announcement.value} lang={lang} />
      {body}
    </BookingContext.Provider>
  )
}
