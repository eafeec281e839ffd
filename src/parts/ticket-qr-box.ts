import { css } from '../../styled-system/css'

/** The QR code's box: the ticket keeps its place while the code loads (src/parts/ticket-view.tsx). */
export const qrBox = css({ width: '8.5rem', height: '8.5rem', flexShrink: '0', bg: 'white', p: '1', _print: { width: '3.6cm', height: '3.6cm' } })
