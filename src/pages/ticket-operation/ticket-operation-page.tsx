import { useT } from '../../app/use-t.ts'
import { page } from '../page-styles.ts'

/** View or cancel tickets page (filled in by a later issue). */
export default function TicketOperationPage() {
  const t = useT()
  return (
    <>
      <h1 className={page.h1} tabIndex={-1}>
        {t('ticketOperation.heading')}
      </h1>
      <p className={page.muted}>{t('common.comingSoon')}</p>
    </>
  )
}
