import { useSignals } from '@preact/signals-react/runtime'
import { css } from '../../../styled-system/css'
import { useT } from '../../app/use-t.ts'
import { formatCalendarDate } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'
import { page } from '../../parts/page-styles.ts'
import { SearchForm } from '../../parts/search-form.tsx'
import { Notices } from './notices.tsx'
import { lookups, ui } from '../../app-models.ts'

const styles = {
  hero: css({ bg: 'brand.50', borderRadius: 'md', p: '6', mb: '6', border: '1px solid {colors.brand.100}' }),
  list: css({ pl: '5', listStyle: 'disc', '& li': { mb: '2' } }),
  offer: css({ display: 'flex', flexDirection: 'column', gap: '2' }),
  coupon: css({
    alignSelf: 'flex-start',
    fontFamily: 'ui-monospace, monospace',
    fontWeight: 'bold',
    fontSize: 'lg',
    letterSpacing: '0.05em',
    px: '3',
    py: '1',
    bg: 'amber.50',
    color: 'amber.700',
    border: '2px dashed {colors.amber.700}',
    borderRadius: 'sm',
  }),
}

/** The offers with their coupon codes (from the app-load lookups). */
function Offers() {
  useSignals()
  const t = useT()
  const list = lookups.offers.value
  const lang = ui.language.value
  if (list.length === 0) return null
  return (
    <section aria-labelledby="home-offers">
      <h2 id="home-offers" className={page.h2}>
        {t('offers.heading')}
      </h2>
      <ul className={page.grid}>
        {list.map((o) => (
          <li key={o.id} className={`${page.card} ${styles.offer}`}>
            <h3 className={page.h3}>{lang === 'bn' ? o.titleBn : o.title}</h3>
            {lang === 'bn' && o.descriptionBn ? <p>{o.descriptionBn}</p> : <p lang="en">{o.description}</p>}
            <p>{t('offers.discount', { percent: o.discountPercent, max: formatMoney(o.maxDiscount, lang) })}</p>
            <p>
              {t('offers.couponLabel')}{' '}
              <code className={styles.coupon} lang="en">
                {o.couponCode}
              </code>
            </p>
            <p className={page.muted}>{t('offers.validUntil', { date: formatCalendarDate(o.validUntil, lang) })}</p>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** Home: heading, the trip search form, announcements, offers and why travel with us. */
export default function HomePage() {
  const t = useT()
  return (
    <>
      <div className={styles.hero}>
        <h1 className={page.h1} tabIndex={-1}>
          {t('home.heading')}
        </h1>
        <p className={page.lead}>{t('home.intro')}</p>
      </div>
      <section aria-labelledby="home-search" className={page.card}>
        <h2 id="home-search" className={page.h3}>
          {t('home.searchRegion')}
        </h2>
        <SearchForm label={t('home.searchRegion')} />
      </section>
      <Notices />
      <Offers />
      <section aria-labelledby="home-why">
        <h2 id="home-why" className={page.h2}>
          {t('home.whyTitle')}
        </h2>
        <ul className={styles.list}>
          <li>{t('home.why1')}</li>
          <li>{t('home.why2')}</li>
          <li>{t('home.why3')}</li>
        </ul>
      </section>
    </>
  )
}
