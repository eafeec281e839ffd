import { useSignals } from '@preact/signals-react/runtime'
import { css } from '../../../styled-system/css'
import { useT } from '../../app/use-t.ts'
import { displayPhone } from '../../config.ts'
import { page } from '../../parts/page-styles.ts'
import { ui } from '../../app-models.ts'

/** Counters: message-id suffix and phone (phones are not translated). */
const branches = [
  { key: 'b1', phone: '+8809610001201' },
  { key: 'b2', phone: '+8809610001202' },
  { key: 'b3', phone: '+8809610001203' },
  { key: 'b4', phone: '+8809610001301' },
  { key: 'b5', phone: '+8809610001302' },
  { key: 'b6', phone: '+8809610001401' },
  { key: 'b7', phone: '+8809610001501' },
  { key: 'b8', phone: '+8809610001601' },
  { key: 'b9', phone: '+8809610001701' },
  { key: 'b10', phone: '+8809610001801' },
] as const

const styles = {
  // label above value on a phone or at a large text size (the breakpoints are in em), side by side from sm
  dl: css({
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    sm: { gridTemplateColumns: 'auto minmax(0, 1fr)' },
    columnGap: '3',
    rowGap: '1',
    m: '0',
    '& dt': { fontWeight: 'bold' },
    '& dd': { m: '0', overflowWrap: 'anywhere' },
    '& dd + dt': { mt: { base: '2', sm: '0' } },
  }),
  tel: css({ display: 'inline-flex', alignItems: 'center', minHeight: 'touch' }),
}

/** Branch locations: every counter with address, phone and opening hours. */
export default function LocationsPage() {
  useSignals()
  const t = useT()
  return (
    <>
      <h1 className={page.h1} tabIndex={-1}>
        {t('locations.heading')}
      </h1>
      <p className={page.lead}>{t('locations.intro')}</p>
      <ul className={page.grid}>
        {branches.map((b) => (
          <li key={b.key} className={page.card}>
            <h2 className={page.h3}>{t(`locations.${b.key}.name`)}</h2>
            <dl className={styles.dl}>
              <dt>{t('locations.address')}</dt>
              <dd>{t(`locations.${b.key}.address`)}</dd>
              <dt>{t('locations.phone')}</dt>
              <dd>
                <a className={styles.tel} href={`tel:${b.phone}`}>
                  {displayPhone(b.phone, ui.language.value)}
                </a>
              </dd>
              <dt>{t('locations.hours')}</dt>
              <dd>{t(`locations.${b.key}.hours`)}</dd>
            </dl>
          </li>
        ))}
      </ul>
    </>
  )
}
