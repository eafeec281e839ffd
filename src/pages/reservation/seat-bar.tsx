import { useComputed, useSignals } from '@preact/signals-react/runtime'
import { css } from '../../../styled-system/css'
import { button } from '../../../styled-system/recipes'
import { useT } from '../../app/use-t.ts'
import { formatCountdown } from '../../lib/dates.ts'
import { focusIdWhenShown } from '../../lib/focus.ts'
import { formatMoney } from '../../lib/money.ts'
import { useBooking } from '../../parts/use-booking.ts'
import { useHold } from './use-hold.ts'
import { useSeatPage } from './use-seat-page.ts'
import { useLagging } from './use-lagging.ts'
import { ui } from '../../app-models.ts'

const styles = {
  bar: css({
    position: 'fixed',
    insetInline: '0',
    bottom: '0',
    zIndex: 'fab',
    bg: 'white',
    borderTop: '2px solid {colors.brand.700}',
    boxShadow: 'lg',
    ps: '4',
    // room for the floating buttons (scroll to top) at the bottom end of the screen
    pe: '16',
    py: '2',
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: '4',
    rowGap: '1',
    // on a wide screen the side column beside the seat map says all this
    lg: { display: 'none' },
    // a short viewport (a phone held sideways, 400 % zoom) keeps its height for the seats: the bar
    // stays under the seat map instead
    '@media (max-height: 32em)': { position: 'static', mt: '2', borderRadius: 'md', border: '1px solid {colors.gray.200}' },
    // and when with the header it would cover half the screen (text-only zoom; src/app/reserved-space.ts)
    'html[data-crowded] &': { position: 'static', mt: '2', borderRadius: 'md', border: '1px solid {colors.gray.200}' },
  }),
  facts: css({
    flex: '1 1 12rem',
    minWidth: '0',
    display: 'flex',
    flexWrap: 'wrap',
    columnGap: '3',
    m: '0',
    fontVariantNumeric: 'tabular-nums',
    '& div': { display: 'flex', gap: '1' },
    '& dt': { color: 'gray.800' },
    '& dd': { m: '0', fontWeight: 'bold' },
  }),
}

/**
 * Phones and tablets: the seats chosen, the total, the time left and the next step, kept at the
 * bottom of the screen while the passenger works through a long seat map, from the first seat
 * chosen. The page reserves its height (`--bottom-bar-space`), so a seat or field that gets focus
 * is scrolled clear of it, and the end of the page can be scrolled above it.
 */
export function SeatBar() {
  useSignals()
  const seatChoice = useSeatPage()
  const hold = useHold()
  const bar = useComputed(() => ({
    seats: seatChoice.countedSeats.value.map((s) => s.name),
    total: seatChoice.totalFare.value,
    left: hold.holdMsLeft.value,
  }))
  const snap = useLagging(bar).value
  return snap.seats.length > 0 ? <Bar seats={snap.seats} total={snap.total} left={snap.left} /> : null
}

function Bar({ seats, total, left }: { seats: string[]; total: number; left: number | null }) {
  useSignals()
  const booking = useBooking()
  const t = useT()
  const lang = ui.language.value
  const booked = booking.phase.value === 'booked'
  return (
    // biome-ignore lint/a11y/useSemanticElements: a named region, not a page section with a heading: it repeats the side column in short
    <div className={styles.bar} role="region" aria-label={t('seatBar.label')} data-testid="seat-bar" data-reserved-space="--bottom-bar-space">
      <dl className={styles.facts}>
        <div>
          <dt>{t('seatChoice.selectedSeats')}</dt>
          <dd>{seats.join(', ')}</dd>
        </div>
        <div>
          <dt>{t('seatChoice.total')}</dt>
          <dd>{formatMoney(total, lang)}</dd>
        </div>
        {left !== null && left > 0 ? (
          <div>
            <dt>{t('seatBar.timeLeft')}</dt>
            <dd>{formatCountdown(Math.ceil(left / 1000), lang)}</dd>
          </div>
        ) : null}
      </dl>
      <button
        type="button"
        className={button({ variant: 'solid' })}
        onClick={() => {
          document.getElementById('booking-heading')?.scrollIntoView({ block: 'start' })
          focusIdWhenShown('booking-heading')
        }}
      >
        {booked ? t('seatBar.toPayment') : t('seatBar.toBooking')}
      </button>
    </div>
  )
}
