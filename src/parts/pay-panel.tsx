import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import type { PayChoice, Reservation } from '../../contract/schemas.ts'
import { css } from '../../styled-system/css'
import { Button } from '../../design-system/button/index.ts'
import { TextField } from '../../design-system/text-field/index.ts'
import { StatusMessage } from '../../design-system/status/index.ts'
import { useMessageText, useT } from '../app/use-t.ts'
import { formatTime, type Locale } from '../lib/dates.ts'
import { focusIdWhenShown, focusWhenShown } from '../lib/focus.ts'
import { formatMoney } from '../lib/money.ts'
import { useBooking } from './use-booking.ts'
import { ServerError, form } from './form-parts.tsx'
import { page } from './page-styles.ts'
import { session, ui } from '../app-models.ts'
import { messageForError } from '../models/ui.ts'

const styles = {
  box: css({ display: 'flex', flexDirection: 'column', gap: '4' }),
  table: css({
    width: 'full',
    borderCollapse: 'collapse',
    fontVariantNumeric: 'tabular-nums',
    '& th, & td': { textAlign: 'start', py: '1', borderBottom: '1px solid {colors.gray.200}' },
    '& td': { textAlign: 'end' },
    '& tr:last-child th, & tr:last-child td': { fontWeight: 'bold', fontSize: 'lg', borderBottom: 'none' },
  }),
  coupon: css({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: '3', '& > div': { flex: '1 1 10rem' } }),
  pay: css({ display: 'flex', flexDirection: 'column', gap: '3' }),
  row: css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'center' }),
}

/** The server's fare for the booking: subtotal, discount with its coupon, total to pay. */
export function ServerFare({ r, lang }: { r: Reservation; lang: Locale }) {
  const t = useT()
  return (
    <table className={styles.table} data-testid="booking-fare">
      <caption className={css({ srOnly: true })}>{t('booking.fareHeading')}</caption>
      <tbody>
        <tr>
          <th scope="row">{t('booking.subtotal')}</th>
          <td>{formatMoney(r.fare.subtotal, lang)}</td>
        </tr>
        {r.fare.couponCode ? (
          <tr>
            <th scope="row">{t('booking.discount', { code: r.fare.couponCode })}</th>
            <td data-testid="booking-discount">−{formatMoney(r.fare.discount, lang)}</td>
          </tr>
        ) : null}
        <tr>
          <th scope="row">{t('booking.total')}</th>
          <td data-testid="booking-total">{formatMoney(r.fare.total, lang)}</td>
        </tr>
      </tbody>
    </table>
  )
}

/** Apply a coupon code, or remove the one applied. */
function Coupon({ r }: { r: Reservation }) {
  useSignals()
  const booking = useBooking()
  const t = useT()
  const text = useMessageText()
  const [code, setCode] = useState('')
  const pending = booking.busy.value === 'coupon'
  const error = booking.error.value?.scope === 'coupon' ? booking.error.value : null
  if (r.fare.couponCode) {
    return (
      <div className={styles.row}>
        <p id="coupon-status" tabIndex={-1}>
          {t('booking.couponApplied', { code: r.fare.couponCode })}
        </p>
        <Button
          variant="outline"
          aria-disabled={pending || undefined}
          onClick={async () => {
            if (await booking.removeCoupon()) focusWhenShown(() => document.querySelector<HTMLElement>('input[name=couponCode]'))
          }}
        >
          {t('booking.removeCoupon')}
        </Button>
        <ServerError error={error} />
      </div>
    )
  }
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (pending) return
        void booking.applyCoupon(code).then((ok) => {
          if (!ok) return
          setCode('')
          // the code field gives way to the coupon applied, which says what changed
          focusIdWhenShown('coupon-status')
        })
      }}
    >
      <div className={styles.coupon}>
        <TextField
          label={t('booking.couponCode')}
          name="couponCode"
          hint={t('booking.couponHint')}
          autoCapitalize="characters"
          autoComplete="off"
          maxLength={30}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={error ? text(messageForError(error)) : undefined}
        />
        <Button type="submit" variant="outline" aria-disabled={pending || undefined}>
          {t('booking.applyCoupon')}
        </Button>
      </div>
    </form>
  )
}

// Mobile wallets first, as passengers here pay; each id written out for the build's message scan.
const gatewayChoices: [PayChoice, string][] = [
  ['bkash', 'booking.payBkash'],
  ['nagad', 'booking.payNagad'],
  ['rocket', 'booking.payRocket'],
  ['card', 'booking.payCard'],
]

/** Props for PayPanel. */
export interface PayPanelProps {
  r: Reservation
  /** After a balance payment sold the ticket. */
  onPaid: (r: Reservation) => void
  /** Show the coupon form (the booking page; not the failure page). */
  withCoupon?: boolean
}

/**
 * A booked reservation: time to pay (with Extend), the server's fare, coupon,
 * and the ways to pay (bKash, Nagad, Rocket, card, balance). Each pay button is inert while any request runs
 * and once the browser is on its way to the gateway.
 */
export function PayPanel({ r, onPaid, withCoupon = true }: PayPanelProps) {
  useSignals()
  const booking = useBooking()
  const t = useT()
  const lang = ui.language.value
  const busy = booking.busy.value
  const canPay = booking.canPay.value
  const error = booking.error.value
  const payError = error?.scope === 'payment' || error?.scope === 'extend' ? error : null
  const balance = session.passenger.value?.balance ?? null
  const [chosen, setChosen] = useState<PayChoice | null>(null)

  return (
    <div className={styles.box}>
      <p data-testid="pay-by">{t('booking.payBy', { time: r.expirationTime ? formatTime(r.expirationTime, lang) : '' })}</p>
      {booking.canExtend.value ? (
        <div>
          <Button variant="outline" aria-disabled={busy !== null || undefined} onClick={() => void booking.extend()}>
            {t('booking.extend')}
          </Button>
        </div>
      ) : null}
      <ServerFare r={r} lang={lang} />
      {withCoupon ? <Coupon r={r} /> : null}
      <section aria-labelledby="pay-heading" className={styles.pay}>
        <h3 id="pay-heading" className={page.h3}>
          {t('booking.payHeading')}
        </h3>
        <ServerError error={payError} />
        {booking.insufficientBalance.value ? (
          <StatusMessage tone="info">
            {t('booking.insufficientBalance', { balance: formatMoney(balance ?? 0, lang), total: formatMoney(booking.amountDue.value, lang) })}{' '}
            <a href="/profile#account">{t('booking.topUpLink')}</a>
          </StatusMessage>
        ) : (
          <StatusMessage tone="info">{null}</StatusMessage>
        )}
        <div className={form.actions}>
          {gatewayChoices.map(([choice, label]) => (
            <Button
              key={choice}
              variant="outline"
              aria-disabled={!canPay || undefined}
              onClick={async () => {
                if (!canPay) return
                setChosen(choice)
                const gateway = await booking.payByCard(choice)
                if (gateway) window.location.assign(gateway)
              }}
            >
              {chosen === choice && (busy === 'card' || booking.redirecting.value)
                ? t('booking.openingGateway')
                : t(label, { total: formatMoney(booking.amountDue.value, lang) })}
            </Button>
          ))}
          <Button
            variant="outline"
            aria-disabled={!canPay || undefined}
            onClick={async () => {
              if (!canPay) return
              const sold = await booking.payFromBalance()
              if (sold) onPaid(sold)
            }}
          >
            {busy === 'balance' ? t('booking.paying') : t('booking.payBalance')}
          </Button>
        </div>
        {balance !== null ? <p className={page.muted}>{t('booking.yourBalance', { balance: formatMoney(balance, lang) })}</p> : null}
      </section>
    </div>
  )
}
