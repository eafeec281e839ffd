import { QrCode } from '@ark-ui/react/qr-code'
import type { Reservation } from '../../contract/schemas.ts'
import { css } from '../../styled-system/css'
import { qrBox } from './ticket-qr-box.ts'

const styles = {
  frame: css({ width: 'full', height: 'full', display: 'block' }),
  pattern: css({ fill: 'black' }),
}

/**
 * What the scanners read: the ticket signed by the operator (contract/ticket-code.ts), which the
 * checker verifies offline; a copy saved before tickets were signed has its PNR and PIN instead.
 */
export function ticketQrValue(r: Pick<Reservation, 'pnr' | 'pin' | 'ticketCode'>): string {
  return r.ticketCode ?? `PNR:${r.pnr};PIN:${r.pin ?? ''}`
}

/** The ticket's QR code (Ark QrCode), an image named for assistive technology. */
export function TicketQr({ r, label }: { r: Pick<Reservation, 'pnr' | 'pin' | 'ticketCode'>; label: string }) {
  const value = ticketQrValue(r)
  return (
    <QrCode.Root value={value} encoding={{ ecc: 'M' }} className={qrBox} data-testid="ticket-qr" data-value={value}>
      <QrCode.Frame className={styles.frame} role="img" aria-label={label}>
        <QrCode.Pattern className={styles.pattern} />
      </QrCode.Frame>
    </QrCode.Root>
  )
}
