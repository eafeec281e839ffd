import { useEffect, useRef, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { css, cx } from '../../../styled-system/css'
import { Button } from '../../../design-system/button/index.ts'
import { PinInput } from '../../../design-system/pin-input/index.ts'
import { useT } from '../../app/use-t.ts'
import { formatCountdown, localizeDigits } from '../../lib/dates.ts'
import { focusIdWhenShown } from '../../lib/focus.ts'
import { formatMoney } from '../../lib/money.ts'
import * as tk from '../../stores/ticket.ts'
import { language } from '../../stores/ui.ts'
import { ServerError, form } from '../../parts/form-parts.tsx'
import { page } from '../../parts/page-styles.ts'

const styles = {
  box: css({ display: 'flex', flexDirection: 'column', gap: '3', maxWidth: '36rem', mt: '4' }),
  quote: css({
    display: 'grid',
    gridTemplateColumns: 'auto auto',
    justifyContent: 'start',
    columnGap: '6',
    rowGap: '1',
    m: '0',
    fontVariantNumeric: 'tabular-nums',
    '& dt': { fontWeight: 'bold' },
    '& dd': { m: '0', textAlign: 'end' },
  }),
}

/**
 * Cancel a sold ticket: the refund quote and policy, the SMS code sent to the
 * account holder's mobile, then the cancellation (refund to the card paid with, or to the balance).
 */
export function CancelTicket() {
  useSignals()
  const t = useT()
  const lang = language.value
  const quote = tk.cancelQuote.value
  const step = tk.cancelStep.value
  const busy = tk.busy.value
  const error = tk.error.value?.scope === 'cancel' ? tk.error.value : null
  const seconds = tk.resendSecondsLeft.value
  const [code, setCode] = useState('')
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    if (step !== 'otp') return
    heading.current?.focus()
    return tk.startResendClock()
  }, [step])

  if (step !== 'otp' || !quote) return <ServerError error={error} />

  const submit = (value: string) => {
    if (busy !== null) return
    // the cancel form gives way to the ticket, which now says Cancelled
    void tk.confirmCancel(value).then((r) => r && focusIdWhenShown('ticket-heading'))
  }

  return (
    <section aria-labelledby="cancel-heading" className={cx(page.card, styles.box)} data-print="hide">
      <h2 id="cancel-heading" ref={heading} tabIndex={-1} className={page.h3}>
        {t('ticket.cancelHeading')}
      </h2>
      <dl className={styles.quote}>
        <dt>{t('ticket.cancelCharge', { percent: quote.chargePercent })}</dt>
        <dd>{formatMoney(quote.cancellationCharge, lang)}</dd>
        <dt>
          {t(quote.refundTo === 'CARD' ? 'ticket.refundAmountCard' : 'ticket.refundAmount', {
            place: t('ticket.methodCard', { place: quote.paidWith ?? 'card' }),
          })}
        </dt>
        <dd data-testid="refund-amount">{formatMoney(quote.refundAmount, lang)}</dd>
      </dl>
      {/* the server's own words, in English */}
      <p className={page.muted} lang="en">
        {quote.policy}
      </p>
      <p>{t('ticket.otpSent', { to: localizeDigits(quote.otpSentTo, lang) })}</p>
      <form
        noValidate
        className={form.root}
        onSubmit={(e) => {
          e.preventDefault()
          submit(code)
        }}
      >
        <PinInput
          label={t('login.otp')}
          boxLabel={(i, count) => t('login.codeDigit', { index: i + 1, count })}
          count={6}
          name="otp"
          value={code}
          onValueChange={setCode}
          error={error?.code === 'INVALID_OTP_PROVIDED' && !code ? t('validation.otpRequired') : undefined}
        />
        <ServerError error={error} />
        <div className={form.actions}>
          <Button type="submit" aria-disabled={busy !== null || undefined}>
            {busy === 'cancel' ? t('ticket.canceling') : t('ticket.confirmCancel')}
          </Button>
          <Button
            variant="outline"
            onClick={() => {
              tk.abandonCancel()
              // back to the button that opened this step
              focusIdWhenShown('cancel-ticket-button')
            }}
          >
            {t('ticket.keepTicket')}
          </Button>
        </div>
        <div>
          <button type="button" className={form.linkButton} disabled={seconds > 0 || busy !== null} onClick={() => void tk.resendCancelCode()}>
            {t('login.resendCode')}
          </button>
          {seconds > 0 ? <span className={page.muted}> {t('login.resendIn', { time: formatCountdown(seconds, lang) })}</span> : null}
        </div>
      </form>
    </section>
  )
}
