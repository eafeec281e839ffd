import { useEffect } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { css } from '../../../styled-system/css'
import { useT } from '../../app/use-t.ts'
import { formatMoney } from '../../lib/money.ts'
import { navigate } from '../../router.ts'
import { AccountModel, type Account } from '../../models/account.ts'
import { AccountContext } from '../../parts/use-account.ts'
import { deferred } from '../../parts/deferred.tsx'
import { page } from '../../parts/page-styles.ts'
import { useVisitModel } from '../../parts/use-visit-model.ts'
import { AccountSection } from './account-section.tsx'
import { ProfileDetails } from './profile-details.tsx'
import { session, ui } from '../../app-models.ts'
import { messageForError } from '../../models/ui.ts'

const styles = {
  layout: css({
    display: 'grid',
    gap: '5',
    gridTemplateColumns: 'minmax(0, 1fr)',
    '& h2': { scrollMarginTop: '6rem' },
    lg: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', alignItems: 'start' },
  }),
  toc: css({ mb: '5', '& ul': { display: 'flex', flexWrap: 'wrap', gap: '1', listStyle: 'none', m: '0', p: '0' } }),
  tocLink: css({
    display: 'inline-flex',
    alignItems: 'center',
    minHeight: 'touch',
    px: '3',
    borderRadius: 'full',
    border: '1px solid {colors.gray.200}',
    bg: 'white',
    textDecoration: 'none',
  }),
  tocTitle: css({ fontWeight: 'medium', mb: '1' }),
}

const sections = [
  ['profile-details', 'profile.detailsTitle'],
  ['profile-account', 'profile.accountTitle'],
  ['profile-tickets', 'profile.ticketsTitle'],
  ['profile-password', 'profile.passwordTitle'],
] as const

// the last section, below the tickets: fetched after the page shows
// the list of tickets comes after the balance, below the fold on a phone: not in the first render
const MyTickets = deferred(() => import('./my-tickets.tsx').then((m) => m.MyTickets))
const ChangePassword = deferred(() => import('./change-password.tsx').then((m) => m.ChangePassword))

/** Completes a top-up when the card gateway sends the passenger back here. */
async function finishTopUp(account: Account, paymentId: string, result: 'success' | 'failure', locale: 'en' | 'bn') {
  const out = await account.confirmTopUp(paymentId, result)
  if (!out) {
    const e = account.errors.value.topUp
    if (e) ui.showError(messageForError(e))
    return
  }
  const amount = formatMoney(out.amount, locale)
  if (out.status === 'APPROVED') {
    ui.showSuccess({ id: 'profile.topUpDone', values: { amount, balance: formatMoney(out.balance, locale) } })
  } else if (out.status === 'REVIEW') {
    // paid at the gateway but held for review: neither done nor failed
    ui.toastInfo({ id: 'profile.topUpReview', values: { amount } }, true)
  } else if (out.status === 'PENDING') {
    // the gateway could not be asked yet: the top-up is confirmed later
    ui.toastInfo({ id: 'profile.topUpPending', values: { amount } }, true)
  } else {
    ui.showError({ id: 'profile.topUpFailed' })
  }
}

/** /profile (restricted): profile details, balance and transactions with top-up, my tickets, password change. */
export default function ProfilePage() {
  useSignals()
  const t = useT()
  const account = useVisitModel(() => new AccountModel(session))

  useEffect(() => {
    void account.loadProfile()
    void account.loadAccount()
    void account.loadReservations()
    const q = new URLSearchParams(location.search)
    const paymentId = q.get('topUp')
    const result = q.get('result')
    if (paymentId && (result === 'success' || result === 'failure')) {
      // a reload must not ask again: the address loses the payment id
      navigate('/profile', { replace: true })
      void finishTopUp(account, paymentId, result, ui.language.peek())
    }
  }, [account])

  return (
    <AccountContext.Provider value={account}>
      <h1 className={page.h1} tabIndex={-1}>
        {t('profile.heading')}
      </h1>
      <nav aria-labelledby="profile-toc" className={styles.toc}>
        <p id="profile-toc" className={styles.tocTitle}>
          {t('profile.onThisPage')}
        </p>
        <ul>
          {sections.map(([id, label]) => (
            <li key={id}>
              <a className={styles.tocLink} href={`#${id}`}>
                {t(label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className={styles.layout}>
        <ProfileDetails />
        <AccountSection />
        <MyTickets />
        <ChangePassword />
      </div>
    </AccountContext.Provider>
  )
}
