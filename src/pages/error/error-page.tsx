import { useSignals } from '@preact/signals-react/runtime'
import { ButtonLink } from '../../../design-system/button/index.ts'
import { useT } from '../../app/use-t.ts'
import { currentPath } from '../../router.ts'
import { page } from '../../parts/page-styles.ts'

const CODES = ['401', '403', '404', '500'] as const

/** /error/401, /403, /404 and /500: what happened and a link back home. */
export default function ErrorPage() {
  useSignals()
  const t = useT()
  const code = CODES.find((c) => currentPath.value.endsWith(c)) ?? '404'
  return (
    <>
      <h1 className={page.h1} tabIndex={-1}>
        {t(`errorPage.heading${code}`)}
      </h1>
      <p className={page.lead}>{t(`errorPage.body${code}`)}</p>
      <ButtonLink href="/">{t('common.backHome')}</ButtonLink>
    </>
  )
}
