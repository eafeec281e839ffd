import { defineTokens } from '@pandacss/dev'
import { colors } from './colors.ts'

/** Spacing scale in 4 px steps (`4` = 16 px). */
const spacing = defineTokens.spacing({
  0: { value: '0' },
  1: { value: '0.25rem' },
  2: { value: '0.5rem' },
  3: { value: '0.75rem' },
  4: { value: '1rem' },
  5: { value: '1.25rem' },
  6: { value: '1.5rem' },
  8: { value: '2rem' },
  10: { value: '2.5rem' },
  11: { value: '2.75rem' },
  12: { value: '3rem' },
  16: { value: '4rem' },
})

export const tokens = defineTokens({
  colors,
  spacing,
  sizes: {
    ...spacing,
    full: { value: '100%' },
    drawer: { value: '220px' },
    touch: { value: '44px' },
    prose: { value: '46rem' },
    page: { value: '72rem' },
  },
  fonts: {
    body: {
      value: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans Bengali', 'Hind Siliguri', sans-serif",
    },
  },
  fontSizes: {
    sm: { value: '0.875rem' },
    md: { value: '1rem' },
    lg: { value: '1.125rem' },
    xl: { value: '1.375rem' },
    '2xl': { value: '1.75rem' },
  },
  fontWeights: {
    normal: { value: '400' },
    medium: { value: '500' },
    bold: { value: '700' },
  },
  lineHeights: {
    tight: { value: '1.25' },
    normal: { value: '1.5' },
  },
  radii: {
    sm: { value: '4px' },
    md: { value: '8px' },
    full: { value: '9999px' },
  },
  shadows: {
    sm: { value: '0 1px 3px rgba(0,0,0,0.15)' },
    md: { value: '0 4px 12px rgba(0,0,0,0.18)' },
    lg: { value: '0 12px 32px rgba(0,0,0,0.25)' },
  },
  zIndex: {
    header: { value: 10 },
    fab: { value: 20 },
    overlay: { value: 40 },
    modal: { value: 50 },
    toast: { value: 60 },
    skip: { value: 70 },
  },
  durations: {
    fast: { value: '120ms' },
    normal: { value: '200ms' },
  },
})

/**
 * Breakpoints (min-width). Below `sm` is "extra small"; below `lg` the menu collapses. Panda writes
 * them as rem (600 px = 37.5rem), which media queries read against the browser's text size setting:
 * at 200 % text the layout is the one of a half-as-wide window, as with zoom (WCAG 1.4.4, 1.4.10).
 * Queries made in code use em for the same reason (design-system/toast).
 */
export const breakpoints = {
  sm: '600px',
  md: '768px',
  lg: '1024px',
  xl: '1280px',
}
