import { css } from '../../styled-system/css'

/** A quote's terms and amounts (`<dl>`): each term beside its amount, amounts lined up at the end (under it on a narrow screen). */
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
  // a phone at large text has no room for a term beside its amount: each amount goes under its term
  '@media (max-width: 24em)': { gridTemplateColumns: 'minmax(0, 1fr)', '& dd': { textAlign: 'start', mb: '1' } },
})
