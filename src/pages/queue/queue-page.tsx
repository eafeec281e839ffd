import { useEffect, useMemo } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { css, cx } from '../../../styled-system/css'
import type { QueueStatus } from '../../../contract/schemas.ts'
import { Button, ButtonLink } from '../../../design-system/button/index.ts'
import { StatusMessage } from '../../../design-system/status/index.ts'
import { call } from '../../api/index.ts'
import { useT } from '../../app/use-t.ts'
import { formatCalendarDate, formatDateTime, formatTime, type Locale } from '../../lib/dates.ts'
import { localStore } from '../../lib/storage.ts'
import { createWaitingRoom, type RushRef, type WaitingRoomModel } from '../../models/waiting-room.ts'
import { LiveRegion } from '../../../design-system/visually-hidden/index.ts'
import { page } from '../../parts/page-styles.ts'
import { currentRoute, navigate } from '../../router.ts'
import { lookups, ui } from '../../app-models.ts'
import { cityName } from '../../models/lookups.ts'

const styles = {
  facts: css({ display: 'grid', gap: '3', gridTemplateColumns: 'repeat(auto-fit, minmax(9rem, 1fr))', m: '0', mb: '4' }),
  fact: css({ '& dt': { color: 'gray.700', fontSize: 'sm' }, '& dd': { m: '0', fontSize: '2xl', fontWeight: 'bold', color: 'gray.900' } }),
}

/** The rush date (and the trip to continue to) of `/queue?tripId=…&from=…&to=…&date=…`, or null. */
function rushFromQuery(query: string): (RushRef & { tripId: number | null }) | null {
  const q = new URLSearchParams(query)
  const [from, to, date] = [q.get('from') ?? '', q.get('to') ?? '', q.get('date') ?? '']
  if (!/^[A-Z]{3}$/.test(from) || !/^[A-Z]{3}$/.test(to) || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null
  const tripId = Number(q.get('tripId'))
  return { tripDate: date, originCode: from, destinationCode: to, tripId: Number.isInteger(tripId) && tripId > 0 ? tripId : null }
}

function seatPage(r: RushRef & { tripId: number | null }): string {
  if (r.tripId === null) return `/search?${new URLSearchParams({ from: r.originCode, to: r.destinationCode, date: r.tripDate })}`
  return `/reservation?tripId=${r.tripId}&from=${r.originCode}&to=${r.destinationCode}&date=${r.tripDate}`
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className={styles.fact}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  )
}

/** Where the place stands, in words and numbers (not a live region: the announcer says the changes). */
function Standing({ s, lang, rush, room }: { s: QueueStatus; lang: Locale; rush: RushRef & { tripId: number | null }; room: WaitingRoomModel }) {
  const t = useT()
  const opens = s.opensAt ? formatDateTime(s.opensAt, lang) : ''
  const seats = s.seatsLeft === null ? '–' : t('queue.number', { n: s.seatsLeft })
  if (s.state === 'soldOut') {
    return (
      <>
        <StatusMessage tone="error">{t('queue.soldOut')}</StatusMessage>
        <p>
          {rush.tripId !== null ? <ButtonLink href={seatPage(rush)}>{t('queue.waitlist')}</ButtonLink> : null}{' '}
          <ButtonLink
            href={`/search?${new URLSearchParams({ from: rush.originCode, to: rush.destinationCode, date: rush.tripDate })}`}
            variant="outline"
          >
            {t('queue.otherDates')}
          </ButtonLink>
        </p>
      </>
    )
  }
  if (s.state === 'admitted' || s.state === 'open') {
    return (
      <>
        <StatusMessage tone="success">{t('queue.admitted', { until: s.admittedUntil ? formatTime(s.admittedUntil, lang) : '' })}</StatusMessage>
        <p>
          <ButtonLink href={seatPage(rush)}>{t('queue.chooseSeats')}</ButtonLink>
        </p>
      </>
    )
  }
  if (s.state === 'expired') {
    return (
      <>
        <StatusMessage tone="error">{t('queue.expired')}</StatusMessage>
        <p>
          <Button onClick={() => room.joinAgain()}>{t('queue.joinAgain')}</Button>
        </p>
      </>
    )
  }
  if (s.state === 'preQueue' || s.state === 'notJoined') {
    return (
      <>
        <p className={page.lead}>{t('queue.preQueue', { opens, count: s.waiting })}</p>
        <dl className={styles.facts}>
          <Fact label={t('queue.opensAt')} value={opens} />
          <Fact label={t('queue.seatsLeft')} value={seats} />
        </dl>
      </>
    )
  }
  const ahead = s.ahead ?? 0
  const minutes = Math.ceil((s.estimateSeconds ?? 0) / 60)
  return (
    <>
      <dl className={styles.facts}>
        <Fact label={t('queue.place')} value={t('queue.number', { n: s.place ?? 0 })} />
        <Fact label={t('queue.ahead')} value={t('queue.number', { n: ahead })} />
        <Fact label={t('queue.seatsLeft')} value={seats} />
        <Fact label={t('queue.estimate')} value={s.estimateSeconds === null ? '–' : t('queue.minutes', { minutes })} />
      </dl>
      {s.seatsLeft !== null && ahead >= s.seatsLeft ? <p>{t('queue.fewerSeats')}</p> : null}
      <p className={page.muted}>{s.admitPerMinute > 0 ? t('queue.estimateHow', { rate: s.admitPerMinute }) : t('queue.allHeld')}</p>
    </>
  )
}

function Room({ rush }: { rush: RushRef & { tripId: number | null } }) {
  useSignals()
  const t = useT()
  const lang = ui.language.value
  const room = useMemo(
    () =>
      createWaitingRoom(rush, {
        call,
        storage: localStore(),
        now: () => Date.now(),
        later: (fn, ms) => {
          const id = setTimeout(fn, ms)
          return () => clearTimeout(id)
        },
      }),
    [rush.tripDate, rush.originCode, rush.destinationCode],
  )
  useEffect(() => {
    const stop = room.start()
    return stop
  }, [room])
  const s = room.status.value
  // a polite region: the state as it changes, a new place at most once a minute (the model decides when)
  const said = room.announcement.value
  // it is this passenger's turn (or the date is no rush any more): on to the seats
  useEffect(() => {
    if (room.mayChooseSeats.value && rush.tripId !== null) navigate(seatPage(rush), { replace: true })
  }, [room.mayChooseSeats.value])
  const bn = lang === 'bn'
  return (
    <>
      <p className={page.lead}>
        {t('queue.trip', {
          from: cityName(lookups, rush.originCode, bn),
          to: cityName(lookups, rush.destinationCode, bn),
          date: formatCalendarDate(rush.tripDate, lang),
        })}
      </p>
      <LiveRegion message={said ? `${t(said.id, said.values)}${said.seq % 2 ? '' : '\u00a0'}` : ''} />
      <section aria-labelledby="queue-standing" className={page.card}>
        <h2 id="queue-standing" className={page.h3}>
          {t('queue.standing')}
        </h2>
        {!room.connected.value ? <StatusMessage tone="info">{t('queue.reconnecting')}</StatusMessage> : null}
        {room.errorCode.value ? <StatusMessage tone="error">{t(`error.${room.errorCode.value}`)}</StatusMessage> : null}
        {s ? <Standing s={s} lang={lang} rush={rush} room={room} /> : <p className={page.muted}>{t('common.loading')}</p>}
        <p className={cx(page.muted)}>{t('queue.keepOpen')}</p>
      </section>
    </>
  )
}

/** /queue: the waiting room of a rush date (the seat page sends its passengers here until it is their turn). */
export default function QueuePage() {
  useSignals()
  const t = useT()
  const query = currentRoute.value?.search ?? ''
  const rush = useMemo(() => rushFromQuery(query.replace(/^\?/, '')), [query])
  useEffect(() => {
    if (!lookups.lookupsLoaded.peek()) void lookups.loadLookups()
  }, [])
  return (
    <>
      <h1 className={page.h1} tabIndex={-1}>
        {t('queue.heading')}
      </h1>
      {rush ? (
        <Room rush={rush} />
      ) : (
        <div className={page.card}>
          <p>{t('queue.noTrip')}</p>
          <p>
            <ButtonLink href="/" variant="outline">
              {t('queue.backToSearch')}
            </ButtonLink>
          </p>
        </div>
      )}
    </>
  )
}
