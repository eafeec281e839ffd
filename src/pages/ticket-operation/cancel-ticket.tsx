import { Fragment, useEffect, useRef, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { css, cx } from '../../../styled-system/css'
import { Button } from '../../../design-system/button/index.ts'
import { PinInput } from '../../../design-system/pin-input/index.ts'
import { useRichT, useT } from '../../app/use-t.ts'
import { formatCountdown, localizeDigits } from '../../lib/dates.ts'
import { focusIdWhenShown } from '../../lib/focus.ts'
import { formatMoney } from '../../lib/money.ts'
import { Checkbox, ServerError, form } from '../../parts/form-parts.tsx'
import { page } from '../../parts/page-styles.ts'
import { quoteList } from '../../parts/quote-list.ts'
import { ui } from '../../app-models.ts'
import { useTicket } from './use-ticket.ts'

const styles = {
  box: css({ display: 'flex', flexDirection: 'column', gap: '3', maxWidth: '36rem', mt: '4' }),
  seats: css({ display: 'flex', flexDirection: 'column', gap: '1', border: 'none', p: '0', m: '0', '& legend': { fontWeight: 'bold', mb: '1' } }),
  alert: css({ color: 'red.700', m: '0' }),
}

/**
 * Cancel a sold ticket: the refund quote and policy, the SMS code sent to the
 * account holder's mobile, then the cancellation (refund to the card paid with, or to the balance).
 */
export function CancelTicket() {
  useSignals()
  const tk = useTicket()
  const t = useT()
  const rt = useRichT()
  const lang = ui.language.value
  const quote = tk.cancelQuote.value
  const step = tk.cancelStep.value
  const busy = tk.busy.value
  const error = tk.error.value?.scope === 'cancel' ? tk.error.value : null
  const seconds = tk.resendSecondsLeft.value
  const [code, setCode] = useState('')
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    if (step === 'seats') heading.current?.focus()
    if (step !== 'otp') return
    heading.current?.focus()
    return tk.startResendClock()
  }, [step])

  if (step === 'seats') return <ChooseSeats heading={heading} />
  if (step !== 'otp' || !quote) return <ServerError error={error} />
  const some = tk.cancelSeats.value

  const submit = (value: string) => {
    if (busy !== null) return
    // the cancel form gives way to the ticket, which now says Cancelled
    void tk.confirmCancel(value).then((r) => r && focusIdWhenShown('ticket-heading'))
  }

  return (
    <section aria-labelledby="cancel-heading" className={cx(page.card, styles.box)} data-print="hide">
      <h2 id="cancel-heading" ref={heading} tabIndex={-1} className={page.h3}>
        {some ? rt('ticket.cancelSeatsHeading', { seats: <span lang="en">{some.join(', ')}</span> }) : t('ticket.cancelHeading')}
      </h2>
      <dl className={quoteList}>
        <dt>{t('ticket.cancelCharge', { percent: quote.chargePercent })}</dt>
        <dd>{formatMoney(quote.cancellationCharge, lang)}</dd>
        {(quote.refundParts && quote.refundParts.length > 1
          ? quote.refundParts
          : [{ to: quote.refundTo, paidWith: quote.paidWith, amount: quote.refundAmount }]
        ).map((p, i, all) => (
          <Fragment key={i}>
            <dt>
              {t(p.to === 'CARD' ? 'ticket.refundAmountCard' : 'ticket.refundAmount', {
                place: t('ticket.methodCard', { place: p.paidWith ?? 'card' }),
              })}
            </dt>
            <dd data-testid={all.length > 1 ? 'refund-part' : 'refund-amount'}>{formatMoney(p.amount, lang)}</dd>
          </Fragment>
        ))}
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
            {busy === 'cancel' ? t('ticket.canceling') : t(some ? 'ticket.confirmCancelSeats' : 'ticket.confirmCancel')}
          </Button>
          <KeepTicket some={!!some} />
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

/** Which seats of a ticket of several to cancel (none ticked at first); the quote follows for those. */
function ChooseSeats({ heading }: { heading: React.RefObject<HTMLHeadingElement | null> }) {
  useSignals()
  const tk = useTicket()
  const t = useT()
  const lang = ui.language.value
  const seats = tk.ticket.value?.seats ?? []
  const busy = tk.busy.value
  const error = tk.error.value?.scope === 'cancel' ? tk.error.value : null
  const [chosen, setChosen] = useState<string[]>([])
  const [none, setNone] = useState(false)
  return (
    <section aria-labelledby="cancel-heading" className={cx(page.card, styles.box)} data-print="hide">
      <h2 id="cancel-heading" ref={heading} tabIndex={-1} className={page.h3}>
        {t('ticket.cancelSeats')}
      </h2>
      <form
        noValidate
        className={form.root}
        onSubmit={(e) => {
          e.preventDefault()
          setNone(chosen.length === 0)
          if (chosen.length > 0 && busy === null) void tk.startCancel(seats.map((s) => s.name).filter((n) => chosen.includes(n)))
        }}
      >
        <fieldset aria-describedby="cancel-seats-hint" className={styles.seats}>
          <legend>{t('ticket.cancelSeatsLegend')}</legend>
          <p id="cancel-seats-hint" className={page.muted}>
            {t('ticket.cancelSeatsHint')}
          </p>
          {seats.map((s) => (
            <Checkbox
              key={s.name}
              label={
                <>
                  <span lang="en">{s.name}</span> ({formatMoney(s.fare, lang)})
                </>
              }
              checked={chosen.includes(s.name)}
              onChange={(e) => {
                // read now: the event's target is gone by the time the update runs
                const on = e.currentTarget.checked
                setChosen((c) => (on ? [...c, s.name] : c.filter((n) => n !== s.name)))
              }}
            />
          ))}
        </fieldset>
        {none && chosen.length === 0 ? (
          <p role="alert" className={styles.alert}>
            {t('ticket.cancelSeatsNone')}
          </p>
        ) : null}
        <ServerError error={error} />
        <div className={form.actions}>
          <Button type="submit" aria-disabled={busy !== null || undefined}>
            {busy === 'cancelInit' ? t('common.loading') : t('ticket.showRefund')}
          </Button>
          <KeepTicket some />
        </div>
      </form>
    </section>
  )
}

/** Leaves the cancel without cancelling, back to the button that opened it (Cancel ticket, or Cancel some seats when `some`). */
function KeepTicket({ some }: { some: boolean }) {
  const tk = useTicket()
  const t = useT()
  return (
    <Button
      variant="outline"
      onClick={() => {
        tk.abandonCancel()
        focusIdWhenShown(some ? 'cancel-seats-button' : 'cancel-ticket-button')
      }}
    >
      {t('ticket.keepTicket')}
    </Button>
  )
}
