import { useT } from '../../app/use-t.ts'
import { page } from '../page-styles.ts'

/** Payment failure page (filled in by a later issue). */
export default function ReservationFailurePage() {
  const t = useT()
  return (
    <>
      <h1 className={page.h1} tabIndex={-1}>
        {t('reservationFailure.heading')}
      </h1>
      <p className={page.muted}>{t('common.comingSoon')}</p>
    </>
  )
}
