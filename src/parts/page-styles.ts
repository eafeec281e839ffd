import { css } from '../../styled-system/css'

/** Shared typography and layout for pages. */
export const page = {
  h1: css({
    fontSize: '2xl',
    lineHeight: 'tight',
    fontWeight: 'bold',
    color: 'gray.900',
    mt: '0',
    mb: '4',
    _focus: { outline: 'none' },
    _focusVisible: { outline: '3px solid {colors.blue.700}' },
  }),
  h2: css({ fontSize: 'xl', lineHeight: 'tight', fontWeight: 'bold', color: 'gray.900', mt: '8', mb: '2' }),
  h3: css({ fontSize: 'lg', lineHeight: 'tight', fontWeight: 'bold', color: 'gray.900', mt: '0', mb: '2' }),
  lead: css({ fontSize: 'lg', color: 'gray.800', maxWidth: 'prose', mb: '6' }),
  prose: css({ maxWidth: 'prose', '& p': { mb: '3' } }),
  muted: css({ color: 'gray.600', fontSize: 'sm' }),
  card: css({ bg: 'white', borderRadius: 'md', boxShadow: 'sm', p: '5', border: '1px solid {colors.gray.200}' }),
  /** A native <select> with its label above (filters, counters). */
  select: css({
    minHeight: 'touch',
    px: '3',
    fontSize: 'md',
    fontFamily: 'inherit',
    bg: 'white',
    color: 'gray.900',
    border: '1px solid {colors.gray.500}',
    borderRadius: 'md',
  }),
  grid: css({
    display: 'grid',
    gap: '4',
    gridTemplateColumns: 'minmax(0, 1fr)',
    md: { gridTemplateColumns: 'repeat(2, 1fr)' },
    xl: { gridTemplateColumns: 'repeat(3, 1fr)' },
    listStyle: 'none',
    p: '0',
    m: '0',
  }),
}
