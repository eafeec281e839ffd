import { QrCode } from '@ark-ui/react/qr-code'
import { css } from '../../styled-system/css'
import { qrBox } from './ticket-qr-box.ts'

const styles = {
  frame: css({ width: 'full', height: 'full', display: 'block' }),
  pattern: css({ fill: 'black' }),
}

/** What the counter's scanner reads: PNR and PIN. */
export function ticketQrValue(pnr: string, pin: string): string {
  return `PNR:${pnr};PIN:${pin}`
}

/** The ticket's QR code (Ark QrCode), an image named for assistive technology. */
export function TicketQr({ pnr, pin, label }: { pnr: string; pin: string; label: string }) {
  return (
    <QrCode.Root value={ticketQrValue(pnr, pin)} encoding={{ ecc: 'M' }} className={qrBox} data-testid="ticket-qr">
      <QrCode.Frame className={styles.frame} role="img" aria-label={label}>
        <QrCode.Pattern className={styles.pattern} />
      </QrCode.Frame>
    </QrCode.Root>
  )
}
