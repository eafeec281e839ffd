import { defineSlotRecipe } from '@pandacss/dev'

/**
 * Seat grid: a coach layout as an ARIA grid. Seat status shows by icon and
 * border style as well as colour; seat type by shape. Every status pair keeps
 * 4.5:1 text contrast and a 3:1 boundary against the page.
 */
export const seatGridRecipe = defineSlotRecipe({
  className: 'seat-grid',
  description: 'Coach seat layout with decks, legend and live region',
  slots: ['root', 'tabs', 'tab', 'deck', 'front', 'grid', 'row', 'cell', 'seat', 'seatName', 'icon', 'legend', 'legendItem', 'swatch', 'live'],
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '3', width: 'full' },
    tabs: { display: 'flex', gap: '2', flexWrap: 'wrap' },
    tab: {
      minHeight: 'touch',
      px: '4',
      borderRadius: 'md',
      border: '2px solid {colors.brand.700}',
      bg: 'white',
      color: 'brand.800',
      fontWeight: 'medium',
      cursor: 'pointer',
      '&[data-selected]': { bg: 'brand.700', color: 'white' },
    },
    deck: {
      display: 'inline-flex',
      flexDirection: 'column',
      // safe: a grid wider than the deck starts at its left edge, where scrolling reaches, instead of overflowing both ways
      alignItems: 'safe center',
      gap: '2',
      p: '3',
      border: '1px solid {colors.gray.500}',
      borderRadius: 'md',
      bg: 'white',
      maxWidth: 'full',
      overflowX: 'auto',
      '&[hidden]': { display: 'none' },
    },
    front: { fontSize: 'sm', color: 'gray.600', alignSelf: 'flex-end' },
    grid: { display: 'flex', flexDirection: 'column', gap: '2' },
    row: { display: 'grid', gridTemplateColumns: 'var(--seat-cols)', gap: '2' },
    cell: { display: 'flex', justifyContent: 'center' },
    seat: {
      position: 'relative',
      display: 'inline-flex',
      flexDirection: 'column',
      alignItems: 'center',
      justifyContent: 'center',
      gap: '2px',
      // in rem, so a larger text size makes the seat larger too: its name stays inside (WCAG 1.4.4)
      width: '3rem',
      height: '3rem',
      p: '0',
      fontSize: 'sm',
      fontWeight: 'bold',
      fontFamily: 'inherit',
      lineHeight: 'tight',
      color: 'gray.900',
      bg: 'white',
      border: '2px solid {colors.brand.700}',
      borderTopWidth: '6px',
      borderRadius: 'sm',
      cursor: 'pointer',
      touchAction: 'manipulation',
      _focusVisible: { outline: '3px solid {colors.blue.700}', outlineOffset: '2px' },
      // seat types: shape
      '&[data-type=Business]': { borderRadius: '10px 10px 4px 4px' },
      '&[data-type=Extra]': { borderStyle: 'double', borderWidth: '4px', borderTopWidth: '8px' },
      '&[data-type=Sleeper]': { height: '4.5rem', borderTopWidth: '12px' },
      '&[data-type="Sleeper Horizontal"]': { width: '4.5rem', height: '3rem', borderTopWidth: '2px', borderLeftWidth: '12px' },
      // statuses: colour plus icon (rendered) and border style
      '&[data-state=selected]': { bg: 'brand.700', borderColor: 'brand.900', color: 'white' },
      '&[data-state=sold]': { bg: 'gray.200', borderColor: 'gray.600', color: 'gray.900', cursor: 'not-allowed' },
      '&[data-state=booked]': { bg: 'amber.50', borderColor: 'amber.700', borderStyle: 'dashed', color: 'amber.700', cursor: 'not-allowed' },
      '&[data-state=adminBooked]': { bg: 'blue.50', borderColor: 'blue.700', borderStyle: 'dashed', color: 'blue.700', cursor: 'not-allowed' },
      '&[data-state=linked]': { bg: 'gray.100', borderColor: 'gray.600', borderStyle: 'dotted', color: 'gray.800', cursor: 'not-allowed' },
      '&[data-state=held]': { bg: 'red.50', borderColor: 'red.700', color: 'red.700', cursor: 'not-allowed' },
      // Windows contrast themes replace every colour, and a mask icon painted with a background colour
      // vanished with them. Here the seat paints itself in the theme's own colours: selected in
      // Highlight, unavailable in GrayText, each with its icon (in currentColor) and border style.
      '@media (forced-colors: active)': {
        forcedColorAdjust: 'none',
        bg: 'Canvas',
        color: 'CanvasText',
        borderColor: 'CanvasText',
        _focusVisible: { outlineColor: 'Highlight' },
        '&[data-state=selected]': { bg: 'Highlight', color: 'HighlightText', borderColor: 'Highlight' },
        '&[data-state=sold], &[data-state=booked], &[data-state=adminBooked], &[data-state=linked], &[data-state=held]': {
          bg: 'Canvas',
          color: 'GrayText',
          borderColor: 'GrayText',
        },
      },
    },
    seatName: { pointerEvents: 'none' },
    // status icons: an inline SVG per seat whose path the seat's state effect sets (seat-grid.tsx ICON_PATHS),
    // stroked in currentColor (in forced colours the seat opts out of colour forcing, so currentColor stays its
    // text colour). Inline, not CSS mask images: each mask image was an SVG document of its own, and their first
    // paint took 60-140 ms of the seat map's first frame at 4x CPU (docs/performance.md)
    icon: {
      display: 'none',
      width: '14px',
      height: '14px',
      flexShrink: 0,
      pointerEvents: 'none',
      fill: 'none',
      stroke: 'currentColor',
      strokeWidth: '2',
      strokeLinecap: 'round',
      strokeLinejoin: 'round',
      '[data-state=selected] > &, [data-state=sold] > &, [data-state=booked] > &, [data-state=adminBooked] > &, [data-state=linked] > &, [data-state=held] > &':
        { display: 'block' },
    },
    legend: {
      display: 'grid',
      // min(…, 100%): at 200 % text a 9.5rem column is wider than a 320 px phone's card
      gridTemplateColumns: 'repeat(auto-fill, minmax(min(9.5rem, 100%), 1fr))',
      gap: '2',
      p: '0',
      m: '0',
      listStyle: 'none',
      fontSize: 'sm',
    },
    legendItem: { display: 'flex', alignItems: 'center', gap: '2' },
    swatch: { width: '28px!', height: '28px!', flexShrink: 0, cursor: 'default!' },
    live: {
      position: 'absolute',
      width: '1px',
      height: '1px',
      overflow: 'hidden',
      clip: 'rect(0 0 0 0)',
      whiteSpace: 'nowrap',
    },
  },
})
