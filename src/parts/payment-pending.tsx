import { Button } from '../../../design-system/button/index.ts'
import { useT } from '../../app/use-t.ts'
import * as b from '../../stores/booking.ts'
import { FormStatus } from '../form-parts.tsx'

/**
 * A card payment the gateway could not confirm yet: never shown as failed (it may
 * well be paid), with a button to ask again. Shared by the success and failure pages.
 */
export function PaymentPending({ paymentId }: { paymentId: string }) {
  const t = useT()
  return (
    <>
      <FormStatus tone="info">{t('payment.confirmingLater')}</FormStatus>
      <p>
        <Button variant="outline" onClick={() => void b.recheckPayment(paymentId)}>
          {t('payment.checkAgain')}
        </Button>
      </p>
    </>
  )
}
