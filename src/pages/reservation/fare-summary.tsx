import { memo, useEffect, useRef, useState } from 'react'
import { useComputed, useSignals } from '@preact/signals-react/runtime'
import type { SeatPage } from '../../models/seat-page.ts'
import type { Seat } from '../../../contract/schemas.ts'
import { MAX_SEATS } from '../../../contract/values.ts'
import { localizeDigits, type Locale } from '../../lib/dates.ts'
import { css, cx } from '../../../styled-system/css'
import { button } from '../../../styled-system/recipes'
import { useT } from '../../app/use-t.ts'
import { formatMoney } from '../../lib/money.ts'
import { useHold } from './use-hold.ts'
import { useSeatPage } from './use-seat-page.ts'
import { page } from '../../parts/page-styles.ts'
import { useLagging } from './use-lagging.ts'
import { seatTypeId } from './seat-type-id.ts'
import { ui } from '../../app-models.ts'

const styles = {
  box: css({ display: 'flex', flexDirection: 'column', gap: '3' }),
  table: css({
    width: 'full',
    borderCollapse: 'collapse',
    fontVariantNumeric: 'tabular-nums',
    '& th, & td': { textAlign: 'start', py: '1', pe: '2', borderBottom: '1px solid {colors.gray.200}' },
    // amounts stay on one line; the headings wrap, so the table fits a 320 px screen (WCAG 1.4.10)
    '& td': { whiteSpace: 'nowrap' },
    '& td:last-child, & th:last-child': { textAlign: 'end', pe: '0' },
    // a narrow box (a phone, large text) stacks each seat type's row: its name, then each amount beside its column's
    // name (the header row stays for screen readers; the names drawn here are not read twice), so nothing scrolls sideways
    '@container (max-width: 22em)': {
      '& thead': { srOnly: true },
      '& tr': { display: 'block', borderBottom: '1px solid {colors.gray.200}', py: '1' },
      '& th, & td': {
        display: 'flex',
        flexWrap: 'wrap',
        justifyContent: 'space-between',
        columnGap: '2',
        borderBottom: 'none',
        py: '0',
        pe: '0',
        whiteSpace: 'normal',
        overflowWrap: 'anywhere',
      },
      '& td::before': { content: 'attr(data-label) / ""', whiteSpace: 'normal', textAlign: 'start' },
      '& tfoot tr': { display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', columnGap: '2' },
    },
  }),
  total: css({ fontSize: 'lg', fontWeight: 'bold', '& td, & th': { borderBottom: 'none', pt: '2' } }),
  seats: css({ fontWeight: 'bold' }),
  caption: css({ srOnly: true }),
  // the container of the narrow-box layout above; should the stacked rows still be wider than the card, the
  // table scrolls in its own box, not the page
  tableWrap: css({
    overflowX: 'auto',
    containerType: 'inline-size',
    _focusVisible: { outline: '3px solid {colors.blue.700}', outlineOffset: '2px' },
  }),
}

/** A box that scrolls: a Tab stop named by the table's caption. */
const scrollBox = { tabIndex: 0, role: 'region', 'aria-labelledby': 'fare-summary-caption' } as const

/** Whether the element scrolls sideways now (its content is wider than it); followed as either resizes. */
function useScrollsSideways<T extends HTMLElement>(): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T>(null)
  const [scrolls, setScrolls] = useState(false)
  useEffect(() => {
    const el = ref.current
    if (!el) return
    const check = () => setScrolls(el.scrollWidth > el.clientWidth + 1)
    const observer = new ResizeObserver(check)
    observer.observe(el)
    if (el.firstElementChild) observer.observe(el.firstElementChild)
    check()
    return () => observer.disconnect()
  })
  return [ref, scrolls]
}

interface SummaryProps {
  seats: Seat[]
  groups: SeatPage['fareByType']['value']
  total: number
  withOpen: number
  limit: number
  /** The per-passenger cap for the travel date, shown when it can bind (what is left of it, or the cap, is at most MAX_SEATS); null otherwise. */
  cap: number | null
  /** What the signed-in passenger has left of `cap`; null for a visitor. */
  left: number | null
  lang: Locale
}

function dateCap(d: { cap: number; left: number | null } | undefined): { cap: number | null; left: number | null } {
  return d && (d.left ?? d.cap) <= MAX_SEATS ? d : { cap: null, left: null }
}

/**
 * Seats chosen, fare per seat type and the total; the reset button. It follows
 * the selection one task behind the seat itself, so a toggle repaints the seat first.
 */
export function FareSummary() {
  useSignals()
  const seatChoice = useSeatPage()
  const summary = useComputed(() => ({
    seats: seatChoice.countedSeats.value,
    groups: seatChoice.fareByType.value,
    total: seatChoice.totalFare.value,
    withOpen: seatChoice.seats.value.length,
    limit: seatChoice.seatLimit.value,
    ...dateCap(seatChoice.tripDetails.value?.dateSeatLimit),
  }))
  const snap = useLagging(summary).value
  return <SummaryView {...snap} lang={ui.language.value} />
}

const SummaryView = memo(function SummaryView({ seats, groups, total, withOpen, limit, cap, left, lang }: SummaryProps) {
  const hold = useHold()
  const t = useT()
  const [wrap, scrolls] = useScrollsSideways<HTMLDivElement>()
  const hasOpen = withOpen > seats.length
  return (
    <section aria-labelledby="fare-heading" className={cx(page.card, styles.box)}>
      <h2 id="fare-heading" className={page.h3}>
        {t('seatChoice.summaryHeading')}
      </h2>
      <p>
        {t('seatChoice.selectedSeats')}{' '}
        <span className={styles.seats} data-testid="selected-seats">
          {seats.length ? seats.map((s) => s.name).join(', ') : t('seatChoice.noSeats')}
        </span>
        {hasOpen ? <span className={page.muted}> {t('seatChoice.openSeatNote')}</span> : null}
      </p>
      <p className={page.muted}>
        {t('seatChoice.limitNote', { count: limit })}
        {cap === null ? null : ` ${left === null ? t('seatChoice.dateCap', { cap }) : t('seatChoice.dateCapLeft', { cap, left })}`}
      </p>
      {groups.length ? (
        // only while it scrolls is the box a Tab stop, so the keyboard can scroll it (axe: scrollable-region-focusable), named by the table's caption
        <div ref={wrap} className={styles.tableWrap} {...(scrolls ? scrollBox : {})}>
          <table className={styles.table}>
            <caption id="fare-summary-caption" className={styles.caption}>
              {t('seatChoice.summaryHeading')}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('seatChoice.colType')}</th>
                <th scope="col">{t('seatChoice.colFare')}</th>
                <th scope="col">{t('seatChoice.colSeats')}</th>
                <th scope="col">{t('seatChoice.colSubtotal')}</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((g) => (
                <tr key={g.seatType}>
                  <th scope="row">{t(seatTypeId(g.seatType))}</th>
                  <td data-label={t('seatChoice.colFare')}>{formatMoney(g.fare, lang)}</td>
                  <td data-label={t('seatChoice.colSeats')}>{localizeDigits(String(g.count), lang)}</td>
                  <td data-label={t('seatChoice.colSubtotal')}>{formatMoney(g.subtotal, lang)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr className={styles.total}>
                <th scope="row" colSpan={3}>
                  {t('seatChoice.total')}
                </th>
                <td data-testid="total-fare">{formatMoney(total, lang)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      ) : null}
      <button type="button" className={button({ variant: 'outline' })} onClick={() => void hold.resetSeats()} disabled={withOpen === 0}>
        {t('seatChoice.reset')}
      </button>
    </section>
  )
})
