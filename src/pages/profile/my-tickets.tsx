import { useEffect, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { css } from '../../../styled-system/css'
import type { Reservation } from '../../../contract/schemas.ts'
import { isConnectionError } from '../../api/api-error.ts'
import { useRichT, useT } from '../../app/use-t.ts'
import { now } from '../../lib/clock.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'
import { isUpcoming, upcomingFirst } from '../../models/account.ts'
import { useAccount } from '../../parts/use-account.ts'
import type { SavedTicket } from '../../stores/saved-tickets.ts'
import { savedTickets } from '../../stores/saved-tickets-later.ts'
import { ServerError } from '../../parts/form-parts.tsx'
import { page } from '../../parts/page-styles.ts'
import { statusMessageIds } from '../../parts/ticket-status.ts'
import { deferred } from '../../parts/deferred.tsx'
import { session, ui } from '../../app-models.ts'

const styles = {
  list: css({ listStyle: 'none', m: '0', p: '0', display: 'flex', flexDirection: 'column', gap: '3' }),
  item: css({ border: '1px solid {colors.gray.200}', borderRadius: 'md', p: '3', bg: 'white' }),
  link: css({ fontWeight: 'bold', fontSize: 'md', display: 'inline-block', minHeight: '1.5rem', py: '1' }),
  details: css({
    display: 'flex',
    flexWrap: 'wrap',
    columnGap: '4',
    rowGap: '1',
    m: '0',
    mt: '1',
    p: '0',
    listStyle: 'none',
    color: 'gray.800',
    fontSize: 'sm',
  }),
  group: css({ mt: '4' }),
}

// what the operator did to a ticket: only a few tickets have it
const TicketChangeNote = deferred(() => import('../../parts/ticket-change-note.tsx').then((m) => m.TicketChangeNote))

/** A ticket's own address (it opens offline from this device's copy); a booking without PNR by its id. */
const ticketHref = (r: Reservation) =>
  r.pnr && r.pin ? `/ticket-operation?pnr=${encodeURIComponent(r.pnr)}` : `/ticket-operation?reservationId=${r.id}`

function Ticket({ r }: { r: Reservation }) {
  const t = useT()
  const rt = useRichT()
  const locale = ui.language.value
  const name = (c: Reservation['origin']) => (locale === 'bn' ? c.nameBn : c.name)
  const route = t('profile.ticketRoute', { origin: name(r.origin), destination: name(r.destination) })
  const when = formatDateTime(r.departureTime, locale)
  return (
    <li className={styles.item}>
      <a className={styles.link} href={ticketHref(r)}>
        {route}, {when}
      </a>
      <ul className={styles.details}>
        {/* a PNR and seat names are codes, printed and typed in Latin letters: read as English (the ticket's rule: src/parts/ticket-view.tsx) */}
        {r.pnr ? <li>{rt('profile.ticketPnr', { pnr: <span lang="en">{r.pnr}</span> })}</li> : null}
        <li>{rt('profile.ticketSeats', { seats: <span lang="en">{r.seats.map((s) => s.name).join(', ')}</span> })}</li>
        <li>{t('profile.ticketStatus', { status: statusMessageIds[r.status] ? t(statusMessageIds[r.status]!) : String(r.status) })}</li>
        <li>{t('profile.ticketTotal', { amount: formatMoney(r.fare.total, locale) })}</li>
      </ul>
      {/* neither sold nor booked: the operator may have cancelled the trip or moved the ticket (the note says it, or nothing) */}
      {r.status > 2 ? <TicketChangeNote r={r} lang={locale} inline /> : null}
    </li>
  )
}

/** The passenger's reservations, upcoming first, each linking to its ticket; without the server, the tickets this device kept. */
export function MyTickets() {
  useSignals()
  const { busy, errors, listedAt, reservations } = useAccount()
  const t = useT()
  const offline = reservations.value === null && isConnectionError(errors.value.reservations)
  const owner = session.passenger.value?.id ?? null
  const [saved, setSaved] = useState<SavedTicket[]>([])
  useEffect(() => {
    setSaved([])
    if (!offline) return
    let live = true
    savedTickets(session).then(
      (s) => live && setSaved(s.savedTicketsOf(owner)),
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [offline, owner])
  const list =
    saved.length > 0
      ? upcomingFirst(
          saved.map((s) => s.reservation),
          now(),
        )
      : reservations.value
  const at = listedAt.value
  const upcoming = list?.filter((r) => isUpcoming(r, at)) ?? []
  const past = list?.filter((r) => !isUpcoming(r, at)) ?? []
  return (
    <section aria-labelledby="profile-tickets" className={page.card}>
      <h2 id="profile-tickets" className={page.h3}>
        {t('profile.ticketsTitle')}
      </h2>
      <ServerError error={errors.value.reservations} />
      {saved.length > 0 ? <p className={page.muted}>{t('profile.savedTickets')}</p> : null}
      {list === null ? (
        busy.value.reservations ? (
          <p className={page.muted}>{t('common.loading')}</p>
        ) : null
      ) : list.length === 0 ? (
        <p>{t('profile.noTickets')}</p>
      ) : (
        <>
          {upcoming.length > 0 ? (
            <div className={styles.group}>
              <h3 className={page.h3}>{t('profile.upcoming')}</h3>
              <ul className={styles.list}>
                {upcoming.map((r) => (
                  <Ticket key={r.id} r={r} />
                ))}
              </ul>
            </div>
          ) : null}
          {past.length > 0 ? (
            <div className={styles.group}>
              <h3 className={page.h3}>{t('profile.past')}</h3>
              <ul className={styles.list}>
                {past.map((r) => (
                  <Ticket key={r.id} r={r} />
                ))}
              </ul>
            </div>
          ) : null}
        </>
      )}
    </section>
  )
}
