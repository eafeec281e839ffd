import { Button } from '../../design-system/button/index.ts'
import { StatusMessage } from '../../design-system/status/index.ts'
import { useT } from '../app/use-t.ts'
import { useBooking } from './use-booking.ts'

/**
 * A card payment the gateway could not confirm yet: never shown as failed (it may
 * well be paid), with a button to ask again. Shared by the success and failure pages.
 */
export function PaymentPending({ paymentId }: { paymentId: string }) {
  const booking = useBooking()
  const t = useT()
  return (
    <>
      <StatusMessage tone="info">{t('payment.confirmingLater')}</StatusMessage>
      <p>
        <Button variant="outline" onClick={() => void booking.recheckPayment(paymentId)}>
          {t('payment.checkAgain')}
        </Button>
      </p>
    </>
  )
}
