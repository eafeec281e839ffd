import { useEffect, useId, useRef, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { css } from '../../../styled-system/css'
import { Button } from '../../../design-system/button/index.ts'
import { StatusMessage } from '../../../design-system/status/index.ts'
import { TextField } from '../../../design-system/text-field/index.ts'
import { useT } from '../../app/use-t.ts'
import { every, now } from '../../lib/clock.ts'
import { formatDateTime, formatTime, todayInDhaka } from '../../lib/dates.ts'
import { form } from '../../parts/form-parts.tsx'
import { page } from '../../parts/page-styles.ts'
import * as ck from '../../stores/checker.ts'
import { ui } from '../../app-models.ts'

const styles = {
  section: css({ mb: '6', display: 'flex', flexDirection: 'column', gap: '3', maxWidth: '32rem' }),
  field: css({ display: 'flex', flexDirection: 'column', gap: '1', fontWeight: 'medium' }),
  video: css({ width: 'full', maxWidth: '20rem', bg: 'black' }),
}

/** How often the revocation list is fetched again while the page is open and online. */
const REFRESH_MS = 60_000

/** The BarcodeDetector of browsers that have one (Chromium on Android), else null: the code is then pasted or typed. */
type Detector = { detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]> }
const barcodeDetector = (): Detector | null => {
  const D = (globalThis as { BarcodeDetector?: new (o: { formats: string[] }) => Detector }).BarcodeDetector
  return D ? new D({ formats: ['qr_code'] }) : null
}

/** Reads a QR code with the camera until one is seen (`onCode`) or the supervisor stops. */
function Scanner(props: { onCode: (code: string) => void; onStop: () => void }) {
  const t = useT()
  const video = useRef<HTMLVideoElement>(null)
  const latest = useRef(props)
  latest.current = props
  useEffect(() => {
    const onCode = (code: string) => latest.current.onCode(code)
    const onStop = () => latest.current.onStop()
    const detector = barcodeDetector()
    let stream: MediaStream | null = null
    let live = true
    void navigator.mediaDevices
      ?.getUserMedia({ video: { facingMode: 'environment' } })
      .then(async (s) => {
        stream = s
        if (!video.current || !live) return
        video.current.srcObject = s
        await video.current.play()
        while (live && detector) {
          const [found] = await detector.detect(video.current).catch(() => [])
          if (found?.rawValue) return live && onCode(found.rawValue)
          await new Promise((r) => setTimeout(r, 250))
        }
      })
      .catch(onStop)
    return () => {
      live = false
      for (const track of stream?.getTracks() ?? []) track.stop()
    }
  }, [])
  return (
    <>
      <video ref={video} className={styles.video} muted playsInline aria-label={t('checker.camera')} />
      <Button variant="outline" onClick={() => props.onStop()}>
        {t('checker.stopScan')}
      </Button>
    </>
  )
}

/** The outcome of the last check: a valid ticket in a polite region, a refusal in an assertive one (both always there). */
function Result() {
  useSignals()
  const t = useT()
  const lang = ui.language.value
  const last = ck.result.value
  const r = last?.result
  const trip = ck.trip.value
  // the same outcome twice in a row is still announced
  const again = last && last.seq % 2 === 0 ? '\u00a0' : ''
  const valid =
    r?.kind === 'valid' && trip ? (
      <>
        <strong>{t('checker.valid')}</strong>{' '}
        {t('checker.validDetails', {
          seats: r.ticket.s.join(', '),
          name: r.ticket.n,
          pnr: r.ticket.p,
          coach: trip.coachCode,
          time: formatTime(trip.departureTime, lang),
        })}
        {again}
      </>
    ) : null
  const refused =
    r && r.kind !== 'valid' ? (
      <>
        <strong>{t('checker.refused')}</strong> {t(`checker.${r.kind}`)}
        {again}
      </>
    ) : null
  return (
    <div data-testid="checker-result">
      <StatusMessage tone="success">{valid}</StatusMessage>
      <StatusMessage tone="error" politeness="assertive">
        {refused}
      </StatusMessage>
    </div>
  )
}

/**
 * /checker: the coach supervisor opens it once with a network, picks the day and their trip; the
 * public key, trips and revocation list are kept, and tickets are then checked with no network
 * (the QR code's text pasted or typed, or scanned where the browser can).
 */
export default function CheckerPage() {
  useSignals()
  const t = useT()
  const lang = ui.language.value
  const tripField = useId()
  const data = ck.data.value
  const [date, setDate] = useState(() => data?.trips[0]?.tripDate ?? todayInDhaka(now()))
  const [code, setCode] = useState('')
  const [scanning, setScanning] = useState(false)
  const canScan = typeof globalThis !== 'undefined' && 'BarcodeDetector' in globalThis

  // fetched at once, on coming back online, and every minute: a cancelled ticket reaches the list soon
  useEffect(() => {
    const refresh = () => void ck.fetchDay(date)
    refresh()
    addEventListener('online', refresh)
    const stop = every(REFRESH_MS, refresh)
    return () => {
      removeEventListener('online', refresh)
      stop()
    }
  }, [date])

  const check = (text: string) => {
    setCode(text)
    void ck.check(text)
  }

  return (
    <>
      <h1 className={page.h1} tabIndex={-1}>
        {t('checker.heading')}
      </h1>
      <p className={page.lead}>{t('checker.intro')}</p>

      <section aria-labelledby="checker-trip" className={styles.section}>
        <h2 id="checker-trip" className={page.h3}>
          {t('checker.tripHeading')}
        </h2>
        <TextField type="date" label={t('checker.date')} value={date} onChange={(e) => e.currentTarget.value && setDate(e.currentTarget.value)} />
        <label className={styles.field} htmlFor={tripField}>
          {t('checker.trip')}
          <select
            id={tripField}
            className={page.select}
            value={ck.trip.value?.id ?? ''}
            onChange={(e) => ck.chooseTrip(e.currentTarget.value ? Number(e.currentTarget.value) : null)}
          >
            <option value="">{t('checker.chooseTrip')}</option>
            {(data?.trips ?? [])
              .filter((x) => x.tripDate === date)
              .map((x) => (
                <option key={x.id} value={x.id}>
                  {`${formatTime(x.departureTime, lang)}, ${x.coachCode}, ${lang === 'bn' ? x.origin.nameBn : x.origin.name} – ${lang === 'bn' ? x.destination.nameBn : x.destination.name}`}
                </option>
              ))}
          </select>
        </label>
        <p className={page.muted} role="status" data-testid="checker-fetched">
          {ck.fetching.value
            ? t('common.loading')
            : data
              ? t(ck.fetchFailed.value ? 'checker.offlineSince' : 'checker.fetchedAt', { time: formatDateTime(data.fetchedAt, lang) })
              : t(ck.fetchFailed.value ? 'checker.neverFetched' : 'common.loading')}
        </p>
      </section>

      <section aria-labelledby="checker-check" className={styles.section}>
        <h2 id="checker-check" className={page.h3}>
          {t('checker.checkHeading')}
        </h2>
        <form
          className={form.root}
          onSubmit={(e) => {
            e.preventDefault()
            check(code)
          }}
        >
          <TextField multiline label={t('checker.code')} hint={t('checker.codeHint')} value={code} onChange={(e) => setCode(e.currentTarget.value)} />
          <div className={form.actions}>
            <Button type="submit">{t('checker.check')}</Button>
            {canScan && !scanning ? (
              <Button type="button" variant="outline" onClick={() => setScanning(true)}>
                {t('checker.scan')}
              </Button>
            ) : null}
          </div>
        </form>
        {scanning ? (
          <Scanner
            onCode={(c) => {
              setScanning(false)
              check(c)
            }}
            onStop={() => setScanning(false)}
          />
        ) : null}
        <Result />
      </section>
    </>
  )
}
