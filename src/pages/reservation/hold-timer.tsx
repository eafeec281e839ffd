import { useSignals } from '@preact/signals-react/runtime'
import { css, cx } from '../../../styled-system/css'
import { button } from '../../../styled-system/recipes'
import { useT } from '../../app/use-t.ts'
import { localizeDigits } from '../../lib/dates.ts'
import { focusIdWhenShown } from '../../lib/focus.ts'
import { useBooking } from '../../parts/use-booking.ts'
import { useHold } from './use-hold.ts'
import { useSeatPage } from './use-seat-page.ts'
import { page } from '../../parts/page-styles.ts'
import { useLagging } from './use-lagging.ts'
import { ui } from '../../app-models.ts'

const styles = {
  box: css({ display: 'flex', flexDirection: 'column', gap: '2' }),
  ending: css({ borderColor: 'amber.700!', borderWidth: '2px!', bg: 'amber.50!' }),
  clock: css({ fontSize: '2xl', fontWeight: 'bold', fontVariantNumeric: 'tabular-nums' }),
  live: css({ srOnly: true }),
}

/** mm:ss */
function clock(ms: number): string {
  const s = Math.ceil(ms / 1000)
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
}

/**
 * The seat hold countdown. The clock itself is not announced every second; a
 * polite live region says once when 2 minutes are left, with a way to keep the
 * seats longer (WCAG 2.2.1): Keep my seats before booking (while the server allows
 * more time), Extend booking time in the booking panel once booked (one button for
 * the one action), or that the seats cannot be held any longer.
 */
export function HoldTimer() {
  useSignals()
  const seatChoice = useSeatPage()
  const hold = useHold()
  const booking = useBooking()
  const t = useT()
  // one task behind a seat toggle, so the seat repaints first
  const left = useLagging(hold.holdMsLeft).value
  // shown a task late, gone at once: a lagging copy still "ending" beside the new answer (no more extensions) said the
  // final two-minute warning after a Keep my seats that left minutes on the hold
  const ending = useLagging(hold.holdEndingSoon).value && hold.holdEndingSoon.value
  const lang = ui.language.value
  const booked = seatChoice.heldForBooking.value
  const canKeep = hold.canKeepSeats.value
  const more = booked ? booking.canExtend.value : canKeep
  const warning = !ending ? '' : !more ? t('seatChoice.holdWarningFinal') : booked ? t('seatChoice.holdWarningBooked') : t('seatChoice.holdWarning')
  return (
    <>
      <div className={styles.live} aria-live="polite" role="status">
        {warning}
      </div>
      {left !== null && left > 0 ? (
        <section aria-labelledby="hold-heading" className={cx(page.card, styles.box, ending ? styles.ending : undefined)}>
          <h2 id="hold-heading" className={page.h3} tabIndex={-1}>
            {t('seatChoice.holdHeading')}
          </h2>
          <p>
            {t('seatChoice.holdLeft')}{' '}
            <span className={styles.clock} data-testid="hold-clock">
              {localizeDigits(clock(left), lang)}
            </span>
          </p>
          {ending && !more ? <p>{warning}</p> : null}
          {ending && canKeep ? (
            <button
              type="button"
              className={button({ variant: 'outline' })}
              onClick={async () => {
                // the button goes once the hold is longer, or when it cannot be: the countdown it changed, or its
                // warning that says why, takes the focus
                await hold.extendHold()
                if (!hold.holdEndingSoon.peek() || !hold.canKeepSeats.peek()) focusIdWhenShown('hold-heading')
              }}
            >
              {t('seatChoice.keepSeats')}
            </button>
          ) : null}
        </section>
      ) : null}
    </>
  )
}
