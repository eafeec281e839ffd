import { useState, type ReactNode } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Button } from '../../../design-system/button/index.ts'
import { TextField } from '../../../design-system/text-field/index.ts'
import { css } from '../../../styled-system/css'
import type { Transaction } from '../../../contract/schemas.ts'
import { useRichT, useT } from '../../app/use-t.ts'
import { formatCalendarDate, formatDateTime, localizeDigits, todayInDhaka } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'
import { toAsciiDigits, validateTopUpForm } from '../../lib/validation.ts'
import { useAccount } from '../../parts/use-account.ts'
import { ServerError, form, useMaybeT } from '../../parts/form-parts.tsx'
import { page } from '../../parts/page-styles.ts'
import { useForm } from '../../parts/use-form.ts'
import { ui } from '../../app-models.ts'

const styles = {
  balance: css({ fontSize: '2xl', fontWeight: 'bold', color: 'brand.800', fontVariantNumeric: 'tabular-nums', m: '0' }),
  balanceLabel: css({ color: 'gray.800', m: '0' }),
  sub: css({ mt: '6' }),
  filter: css({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: '3', '& > div': { width: 'auto', flex: '1 1 10rem' } }),
  filterButton: css({ alignSelf: 'flex-start', mt: '7' }),
  tableWrap: css({ overflowX: 'auto', mt: '3', _focusVisible: { outline: '3px solid {colors.blue.700}' } }),
  table: css({
    width: 'full',
    borderCollapse: 'collapse',
    fontSize: 'sm',
    '& caption': { textAlign: 'start', fontWeight: 'medium', mb: '2', color: 'gray.800' },
    '& th, & td': { textAlign: 'start', p: '2', borderBottom: '1px solid {colors.gray.200}', verticalAlign: 'top' },
    '& th': { bg: 'gray.50', fontWeight: 'bold' },
    '& td.num, & th.num': { textAlign: 'end', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' },
  }),
  credit: css({ color: 'green.700' }),
  detail: css({ display: 'block', color: 'gray.600' }),
}

const kindIds: Record<Transaction['kind'], string> = {
  TOP_UP: 'profile.kindTopUp',
  TICKET_PAYMENT: 'profile.kindTicketPayment',
  REFUND: 'profile.kindRefund',
  OPENING: 'profile.kindOpening',
}

const reasonIds: Record<NonNullable<Transaction['reason']>, string> = {
  TICKET_CANCELED: 'transactions.ticketCanceled',
  BOOKING_ENDED: 'transactions.bookingEnded',
  COUPON_REFUSED: 'transactions.couponRefused',
  TRIP_CANCELED: 'transactions.tripCanceled',
  TICKET_CHANGED: 'transactions.ticketChanged',
}

/**
 * What a row says beyond its kind, in the passenger's language: a message id and its values,
 * `{ text }` for an older refund whose reason only its English text gives, or null (an opening
 * balance says it all).
 */
function transactionDetail(tx: Transaction): { id: string; values?: Record<string, ReactNode> } | { text: string } | null {
  // a PNR is a code in Latin letters: read as English
  if (tx.reason === 'TICKET_CANCELED' || tx.reason === 'TRIP_CANCELED')
    return tx.pnr ? { id: reasonIds[tx.reason], values: { pnr: <span lang="en">{tx.pnr}</span> } } : null
  if (tx.reason) return { id: reasonIds[tx.reason] }
  switch (tx.kind) {
    case 'OPENING':
      return null
    case 'TOP_UP':
      return { id: 'transactions.topUpCard' }
    case 'TICKET_PAYMENT':
      return tx.reservationId ? { id: 'transactions.booking', values: { id: tx.reservationId } } : null
    case 'REFUND':
      return tx.description ? { text: tx.description } : null
  }
}

/** A row's detail line under its kind. */
function Detail({ tx }: { tx: Transaction }) {
  const rt = useRichT()
  const d = transactionDetail(tx)
  if (!d) return null
  // an older row's own text is English whatever the page's language
  return 'text' in d ? (
    <span className={styles.detail} lang="en">
      {d.text}
    </span>
  ) : (
    <span className={styles.detail}>{rt(d.id, d.values ?? {})}</span>
  )
}

function TopUpForm() {
  useSignals()
  const { busy, errors, startTopUp } = useAccount()
  const t = useT()
  const mt = useMaybeT()
  const f = useForm({ amount: '', amountConfirmation: '' }, validateTopUpForm)
  const pending = busy.value.topUp
  return (
    <form
      ref={f.formRef}
      className={form.root}
      noValidate
      onSubmit={f.submit(async (v) => {
        if (pending) return
        const url = await startTopUp(Number(v.amount.trim()))
        // the card gateway returns to /profile?topUp=<paymentId>&result=…
        if (url) window.location.assign(url)
      })}
    >
      <p className={page.muted}>{t('profile.topUpHint')}</p>
      <TextField
        label={t('profile.amount')}
        inputMode="numeric"
        autoComplete="off"
        {...f.bind('amount')}
        onChange={(e) => f.set('amount', toAsciiDigits(e.currentTarget.value))}
        error={mt(f.shown('amount'))}
      />
      <TextField
        label={t('profile.amountConfirmation')}
        inputMode="numeric"
        autoComplete="off"
        {...f.bind('amountConfirmation')}
        onChange={(e) => f.set('amountConfirmation', toAsciiDigits(e.currentTarget.value))}
        error={mt(f.shown('amountConfirmation'))}
      />
      <ServerError error={errors.value.topUp} />
      <div className={form.actions}>
        <Button type="submit" aria-disabled={pending || undefined}>
          {t('profile.topUp')}
        </Button>
      </div>
    </form>
  )
}

function Transactions() {
  useSignals()
  const { busy, errors, loadAccount, range, transactions } = useAccount()
  const t = useT()
  const locale = ui.language.value
  const r = range.value
  const [from, setFrom] = useState(r.from)
  const [to, setTo] = useState(r.to)
  const today = todayInDhaka()
  const rangeError = from && to && from > to ? t('profile.rangeInvalid') : undefined
  const list = transactions.value
  return (
    <div className={styles.sub}>
      <h3 className={page.h3}>{t('profile.transactionsTitle')}</h3>
      <form
        className={styles.filter}
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          if (!rangeError && from && to) void loadAccount({ from, to })
        }}
      >
        <TextField
          label={t('profile.from')}
          type="date"
          name="from"
          max={today}
          value={from}
          onChange={(e) => setFrom(e.currentTarget.value)}
          error={rangeError}
        />
        <TextField label={t('profile.to')} type="date" name="to" max={today} value={to} onChange={(e) => setTo(e.currentTarget.value)} />
        <Button type="submit" variant="outline" className={styles.filterButton}>
          {t('profile.showTransactions')}
        </Button>
      </form>
      <ServerError error={errors.value.account} />
      {list === null ? (
        busy.value.account ? (
          <p className={page.muted}>{t('common.loading')}</p>
        ) : null
      ) : list.length === 0 ? (
        <p role="status">{t('profile.noTransactions')}</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways must be reachable by keyboard to scroll (WCAG 2.1.1)
        // biome-ignore lint/a11y/useSemanticElements: a named region around the scrolling table, as axe's scrollable-region-focusable asks
        <div className={styles.tableWrap} tabIndex={0} role="region" aria-labelledby="transactions-caption">
          <table className={styles.table}>
            <caption id="transactions-caption">
              {t('profile.transactionsCaption', { from: formatCalendarDate(r.from, locale), to: formatCalendarDate(r.to, locale) })}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('profile.txDate')}</th>
                <th scope="col">{t('profile.txDescription')}</th>
                <th scope="col" className="num">
                  {t('profile.txAmount')}
                </th>
                <th scope="col" className="num">
                  {t('profile.txBalanceAfter')}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((tx) => (
                <tr key={tx.id}>
                  <td>{formatDateTime(tx.createdAt, locale)}</td>
                  <td>
                    {t(kindIds[tx.kind])}
                    <Detail tx={tx} />
                  </td>
                  <td className={`num ${tx.amount > 0 ? styles.credit : ''}`}>
                    {(tx.amount > 0 ? localizeDigits('+', locale) : '') + formatMoney(tx.amount, locale)}
                  </td>
                  <td className="num">{formatMoney(tx.balanceAfter, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  )
}

/** Balance, top-up through the card gateway, and the transactions of a date range. */
export function AccountSection() {
  useSignals()
  const { balance } = useAccount()
  const t = useT()
  const b = balance.value
  return (
    <section aria-labelledby="profile-account" className={page.card}>
      <h2 id="profile-account" className={page.h3}>
        {t('profile.accountTitle')}
      </h2>
      <p className={styles.balanceLabel}>{t('profile.balance')}</p>
      <p className={styles.balance}>{b === null ? '—' : formatMoney(b, ui.language.value)}</p>
      <div className={styles.sub}>
        <h3 className={page.h3}>{t('profile.topUpTitle')}</h3>
        <TopUpForm />
      </div>
      <Transactions />
    </section>
  )
}
