import { useEffect, useMemo, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { css } from '../../../styled-system/css'
import { Button } from '../../../design-system/button/index.ts'
import { StatusMessage } from '../../../design-system/status/index.ts'
import { useRichT, useT } from '../../app/use-t.ts'
import { formatMoney } from '../../lib/money.ts'
import { now } from '../../lib/clock.ts'
import { reservationStatus } from '../../../contract/values.ts'
import { currentRoute, navigate } from '../../router.ts'
import { normalisePnr, PNR_PATTERN, TicketModel } from '../../models/ticket.ts'
import { ServerError } from '../../parts/form-parts.tsx'
import { page } from '../../parts/page-styles.ts'
import { Announcer } from '../../parts/announcer.tsx'
import { TicketView } from '../../parts/ticket-view.tsx'
import { deferred } from '../../parts/deferred.tsx'
import { useVisitModel } from '../../parts/use-visit-model.ts'
import { FindTicketForm } from './find-ticket-form.tsx'
import { session, ui } from '../../app-models.ts'
import { refundSplitText } from './refund-parts.ts'
import { TicketContext, useTicket } from './use-ticket.ts'

const styles = {
  find: css({ mb: '6' }),
  again: css({ mt: '4' }),
}

// what the operator did to the ticket (trip cancelled, moved): only a few tickets have it
const TicketChangeNote = deferred(() => import('../../parts/ticket-change-note.tsx').then((m) => m.TicketChangeNote))
// the SMS code field (Ark PinInput) only when the passenger asks to cancel
const CancelTicket = deferred(() => import('./cancel-ticket.tsx').then((m) => m.CancelTicket))
// moving the ticket to another trip brings the seat map's code: only when the passenger asks
const ChangeTicket = deferred(() => import('./change-ticket.tsx').then((m) => m.ChangeTicket))

/** The ticket on screen with resend e-mail and cancel (the saved copy on its own: those need the server). */
function Ticket() {
  useSignals()
  const tk = useTicket()
  const t = useT()
  const rt = useRichT()
  const lang = ui.language.value
  const r = tk.ticket.value
  if (!r) return null
  const savedAt = tk.savedAt.value
  // a ticket opened by its link comes without its PIN: it shows, and cannot cancel
  const sold = tk.isSold.value && savedAt === null && !!r.pin
  const busy = tk.busy.value
  // why the saved copy is shown: no connection, or the server's answer to the saved PNR and PIN
  const shownError = tk.error.value?.scope === 'resend' || (savedAt !== null && tk.error.value?.scope === 'find') ? tk.error.value : null
  const done = tk.cancelStep.value === 'done'
  const some = tk.seatsCanceled.value
  // a refund split between the card and the balance names each part (the quote the passenger confirmed)
  const split = refundSplitText(done ? tk.cancelQuote.value?.refundParts : some?.parts, t, lang)
  const [changing, setChanging] = useState(false)
  // a live unpaid booking (opened from the profile's list) may move too, until its time to pay ends
  const booked = r.status === reservationStatus.booked && savedAt === null && !!r.expirationTime && Date.parse(r.expirationTime) > now()
  // a change needs the owner's session (the server checks it is theirs)
  const changeable = (booked || (sold && tk.cancelStep.value === 'idle')) && session.isSignedIn.value
  const changeButton =
    changeable && !changing ? (
      <Button id="change-ticket-button" variant="outline" aria-disabled={busy !== null || undefined} onClick={() => setChanging(true)}>
        {t('dateChange.open')}
      </Button>
    ) : null
  return (
    <>
      <StatusMessage tone="success">
        {done
          ? split
            ? t('ticket.canceledDoneSplit', { parts: split })
            : t(r.refund?.to === 'CARD' ? 'ticket.canceledDoneCard' : 'ticket.canceledDone', {
                refund: formatMoney(r.refundAmount ?? 0, lang),
                place: t('ticket.methodCard', { place: r.paidWith ?? 'card' }),
              })
          : some
            ? rt(split ? 'ticket.seatsCanceledDoneSplit' : some.toCard ? 'ticket.seatsCanceledDoneCard' : 'ticket.seatsCanceledDone', {
                seats: <span lang="en">{some.seats}</span>,
                refund: formatMoney(some.refund, lang),
                place: t('ticket.methodCard', { place: r.paidWith ?? 'card' }),
                parts: split,
              })
            : tk.emailSent.value
              ? t('ticket.emailSent')
              : null}
      </StatusMessage>
      <ServerError error={shownError} />
      <TicketView
        reservation={r}
        heading={t('ticket.heading')}
        savedAt={savedAt}
        // neither sold nor booked: the operator may have cancelled the trip or moved the ticket (the note says it, or nothing)
        change={r.status > 2 ? <TicketChangeNote r={r} lang={lang} /> : null}
      >
        {r.pin ? null : <p className={page.muted}>{t('ticket.linkNote')}</p>}
        {sold ? (
          <>
            <Button variant="outline" aria-disabled={busy !== null || undefined} onClick={() => busy === null && void tk.resendEmail()}>
              {busy === 'resend' ? t('common.sending') : t('ticket.resendEmail')}
            </Button>
            {tk.cancelStep.value === 'idle' ? (
              <>
                <Button
                  id="cancel-ticket-button"
                  variant="outline"
                  aria-disabled={busy !== null || undefined}
                  onClick={() => busy === null && void tk.startCancel(null)}
                >
                  {busy === 'cancelInit' ? t('common.loading') : t('ticket.cancel')}
                </Button>
                {r.seats.length > 1 ? (
                  <Button
                    id="cancel-seats-button"
                    variant="outline"
                    aria-disabled={busy !== null || undefined}
                    onClick={() => busy === null && tk.chooseSeats()}
                  >
                    {t('ticket.cancelSeats')}
                  </Button>
                ) : null}
                {changeButton}
              </>
            ) : null}
          </>
        ) : booked ? (
          changeButton
        ) : null}
      </TicketView>
      {changeable && changing ? <ChangeTicket r={r} onClose={() => setChanging(false)} /> : null}
      <CancelTicket />
    </>
  )
}

/** `?pnr=` (a ticket's own address), `?reservationId=` (one of the signed-in passenger's) and `?k=` (the SMS's link, `/t?k=`). */
function readQuery(search: string): { pnr: string | null; reservationId: number | null; link: string | null } {
  const q = new URLSearchParams(search)
  const pnr = normalisePnr(q.get('pnr') ?? '')
  const id = Number(q.get('reservationId'))
  return { pnr: PNR_PATTERN.test(pnr) ? pnr : null, reservationId: Number.isInteger(id) && id > 0 ? id : null, link: q.get('k') }
}

/**
 * /ticket-operation: find a ticket by PNR and PIN, or open one of the signed-in
 * passenger's tickets by `?reservationId=`, or a ticket at its own address
 * `?pnr=` (this device's saved copy, also offline; the form with the PNR filled
 * in when the device has none), then view, print, add to calendar, resend its
 * e-mail or cancel it. A ticket found by PNR and PIN moves to its own address.
 */
export default function TicketOperationPage() {
  useSignals()
  const tk = useVisitModel(() => new TicketModel(session))
  const t = useT()
  const search = currentRoute.value?.search ?? ''
  const { pnr, reservationId, link } = useMemo(() => readQuery(search), [search])
  // back from the gateway's page after paying for a change of the ticket
  const changePaid = useMemo(() => new URLSearchParams(search).get('change'), [search])
  const signedIn = session.isSignedIn.value
  const [noCopy, setNoCopy] = useState<string | null>(null)

  useEffect(() => {
    if (reservationId === null) return
    if (!signedIn) {
      // a passenger's own ticket by id needs their login; come back here afterwards
      session.rememberRedirect(`/ticket-operation?reservationId=${reservationId}`)
      navigate('/login', { replace: true })
      return
    }
    void tk.openById(reservationId)
  }, [reservationId, signedIn])

  useEffect(() => {
    if (link !== null) void tk.openByLink(link)
  }, [link])

  useEffect(() => {
    if (pnr === null || reservationId !== null || link !== null) return
    void tk.openSaved(pnr).then((opened) => setNoCopy(opened ? null : pnr))
  }, [pnr, reservationId, link])

  const ticket = tk.ticket.value
  const findError = tk.error.value?.scope === 'find' ? tk.error.value : null

  // the ticket found by PNR and PIN gets its own address (reload, bookmark, offline)
  useEffect(() => {
    if (ticket?.pnr && tk.savedAt.peek() === null && reservationId === null && link === null && pnr !== ticket.pnr) {
      navigate(`/ticket-operation?pnr=${encodeURIComponent(ticket.pnr)}`, { replace: true })
    }
  }, [ticket, pnr, reservationId, link])

  return (
    <TicketContext.Provider value={tk}>
      <h1 className={page.h1} tabIndex={-1}>
        {t('ticketOperation.heading')}
      </h1>
      <Announcer announcement={tk.announcement.value} lang={ui.language.value} />
      {ticket ? (
        <>
          {changePaid === 'success' || changePaid === 'failure' ? (
            <StatusMessage tone={changePaid === 'success' ? 'success' : 'error'}>
              {t(changePaid === 'success' ? 'dateChange.paid' : 'dateChange.payFailed')}
            </StatusMessage>
          ) : null}
          <Ticket />
          <div className={styles.again} data-print="hide">
            <Button
              variant="ghost"
              onClick={() => {
                tk.closeTicket()
                if (reservationId !== null || pnr !== null || link !== null) navigate('/ticket-operation', { replace: true })
              }}
            >
              {t('ticket.findAnother')}
            </Button>
          </div>
        </>
      ) : (reservationId !== null || link !== null || (pnr !== null && noCopy !== pnr)) && !findError ? (
        <p role="status" className={page.muted}>
          {t('common.loading')}
        </p>
      ) : (
        <section aria-labelledby="find-heading" className={styles.find}>
          <h2 id="find-heading" className={page.h3}>
            {t('ticket.findHeading')}
          </h2>
          <p className={page.lead}>{t('ticket.findIntro')}</p>
          <FindTicketForm key={pnr ?? ''} initialPnr={pnr ?? ''} />
        </section>
      )}
    </TicketContext.Provider>
  )
}
