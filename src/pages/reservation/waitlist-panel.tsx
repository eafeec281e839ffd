import { useSignals } from '@preact/signals-react/runtime'
import { useEffect, useMemo, useState } from 'react'
import { css, cx } from '../../../styled-system/css'
import { button } from '../../../styled-system/recipes'
import { WAITLIST_MAX_SEATS } from '../../../contract/values.ts'
import { useT } from '../../app/use-t.ts'
import { formatTime } from '../../lib/dates.ts'
import { focusIdWhenShown } from '../../lib/focus.ts'
import { page } from '../../parts/page-styles.ts'
import { ServerError } from '../../parts/server-error.tsx'
import { createWaitlist } from '../../stores/waitlist.ts'
import { useSeatPage } from './use-seat-page.ts'
import { session, ui } from '../../app-models.ts'

const styles = {
  box: css({ display: 'flex', flexDirection: 'column', gap: '3', mt: '4', maxWidth: 'prose' }),
  row: css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'flex-end' }),
  field: css({ display: 'flex', flexDirection: 'column', gap: '1' }),
}

/**
 * The waitlist of a sold-out trip on the seat page: a signed-in passenger joins for 1 to 4 seats,
 * sees their place, and leaves with one click; seats offered to them show with their deadline and
 * "Book these seats" puts them in the seat choice (they are already held for the passenger), where
 * the normal booking goes on. What the list says of the passenger is a polite live region.
 */
export function WaitlistPanel({ tripId }: { tripId: number }) {
  useSignals()
  const t = useT()
  const seatChoice = useSeatPage()
  const signedIn = session.isSignedIn.value
  const list = useMemo(() => createWaitlist(tripId), [tripId])
  const [seats, setSeats] = useState(1)
  useEffect(() => (signedIn ? list.start() : undefined), [list, signedIn])
  const entry = list.entry.value
  const lang = ui.language.value

  const status = !entry
    ? ''
    : entry.status === 'WAITING'
      ? t('waitlist.waiting', { place: entry.place ?? 1, count: entry.seats })
      : entry.status === 'OFFERED'
        ? t('waitlist.offered', { seats: entry.offeredSeats.join(', '), time: entry.offerExpiresAt ? formatTime(entry.offerExpiresAt, lang) : '' })
        : t(entry.status === 'BOOKED' ? 'waitlist.booked' : 'waitlist.lapsed')
  const canJoin = signedIn && entry !== undefined && (!entry || entry.status === 'LAPSED')
  const onList = entry?.status === 'WAITING' || entry?.status === 'OFFERED'

  return (
    <section aria-labelledby="waitlist-heading" className={cx(page.card, styles.box)} data-testid="waitlist">
      <h2 id="waitlist-heading" className={page.h3}>
        {t('waitlist.heading')}
      </h2>
      <p>{t('waitlist.intro')}</p>
      {signedIn ? null : (
        <p>
          <a href="/login">{t('waitlist.signIn')}</a>
        </p>
      )}
      <div role="status" aria-live="polite" aria-atomic="true">
        {status ? <p>{status}</p> : null}
      </div>
      {canJoin ? (
        <form
          className={styles.row}
          onSubmit={(e) => {
            e.preventDefault()
            void list.join(seats)
          }}
        >
          <label className={styles.field}>
            {t('waitlist.seats')}
            <select className={page.select} value={seats} onChange={(e) => setSeats(Number(e.currentTarget.value))}>
              {Array.from({ length: WAITLIST_MAX_SEATS }, (_, i) => (
                <option key={i} value={i + 1}>
                  {i + 1}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className={button()} disabled={list.busy.value}>
            {t('waitlist.join')}
          </button>
        </form>
      ) : null}
      {onList ? (
        <div className={styles.row}>
          {entry?.status === 'OFFERED' ? (
            <button
              type="button"
              className={button()}
              onClick={async () => {
                // the seats are held for the passenger: reading the trip again puts them in the choice
                await seatChoice.reloadSeats(tripId)
                focusIdWhenShown('hold-heading')
              }}
            >
              {t('waitlist.book')}
            </button>
          ) : null}
          <button type="button" className={button({ variant: 'outline' })} disabled={list.busy.value} onClick={() => void list.leave()}>
            {t('waitlist.leave')}
          </button>
        </div>
      ) : null}
      <ServerError error={list.error.value} />
    </section>
  )
}
