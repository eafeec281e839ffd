import { css } from '../../../styled-system/css'
import { useT } from '../../app/use-t.ts'
import { page } from '../../parts/page-styles.ts'

const QUESTIONS = 10

const styles = {
  item: css({ borderBottom: '1px solid {colors.gray.200}', py: '4' }),
  q: css({ fontSize: 'lg', fontWeight: 'bold', mt: '0', mb: '2' }),
  a: css({ m: '0', maxWidth: 'prose' }),
}

/** FAQ: the questions passengers ask most (booking, seat hold, payment, refund, luggage, boarding, children). */
export default function FaqPage() {
  const t = useT()
  const ids = Array.from({ length: QUESTIONS }, (_, i) => i + 1)
  return (
    <>
      <h1 className={page.h1} tabIndex={-1}>
        {t('faq.heading')}
      </h1>
      <p className={page.lead}>{t('faq.intro')}</p>
      {ids.map((n) => (
        <section key={n} className={styles.item} aria-labelledby={`faq-q${n}`}>
          <h2 id={`faq-q${n}`} className={styles.q}>
            {t(`faq.q${n}`)}
          </h2>
          <p className={styles.a}>{t(`faq.a${n}`)}</p>
        </section>
      ))}
    </>
  )
}
