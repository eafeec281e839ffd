import { css } from '../../styled-system/css'

/** A quote's terms and amounts (`<dl>`): each term beside its amount, amounts lined up at the end. */
export const quoteList = css({
  display: 'grid',
  gridTemplateColumns: 'auto auto',
  justifyContent: 'start',
  columnGap: '6',
  rowGap: '1',
  m: '0',
  fontVariantNumeric: 'tabular-nums',
  '& dt': { fontWeight: 'bold' },
  '& dd': { m: '0', textAlign: 'end' },
})
