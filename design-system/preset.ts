import { definePreset } from '@pandacss/dev'
import { tokens, breakpoints } from './tokens/index.ts'
import { buttonRecipe } from './button/button.recipe.ts'
import { dialogRecipe } from './dialog/dialog.recipe.ts'
import { toastRecipe } from './toast/toast.recipe.ts'
import { drawerRecipe } from './drawer/drawer.recipe.ts'
import { loadingOverlayRecipe } from './loading-overlay/loading-overlay.recipe.ts'
import { textFieldRecipe } from './text-field/text-field.recipe.ts'
import { passwordInputRecipe } from './password-input/password-input.recipe.ts'
import { pinInputRecipe } from './pin-input/pin-input.recipe.ts'
import { seatGridRecipe } from './seat-grid/seat-grid.recipe.ts'
import { statusRecipe } from './status/status.recipe.ts'

/** The design system: tokens, breakpoints and component recipes in one preset. */
export const preset = definePreset({
  name: 'bus-ticketing',
  theme: {
    tokens,
    breakpoints,
    keyframes: {
      spin: { to: { transform: 'rotate(360deg)' } },
    },
    recipes: { button: buttonRecipe, status: statusRecipe },
    slotRecipes: {
      dialog: dialogRecipe,
      toast: toastRecipe,
      drawer: drawerRecipe,
      loadingOverlay: loadingOverlayRecipe,
      textField: textFieldRecipe,
      passwordInput: passwordInputRecipe,
      pinInput: pinInputRecipe,
      seatGrid: seatGridRecipe,
    },
  },
  // The bands below, written on <html> (src/app/reserved-space.ts), are registered as not inherited: an inherited
  // variable changed on <html> restyles every element of the page (the seat page's first frame restyled its 348
  // elements twice, once for the seat map and once for the bottom bar's band). <body> and the notifications take
  // them explicitly (below, and design-system/toast), so a change restyles those few elements only.
  globalVars: {
    '--header-space': { syntax: '<length>', inherits: false, initialValue: '0px' },
    '--bottom-bar-space': { syntax: '<length>', inherits: false, initialValue: '0px' },
    '--fab-space': { syntax: '<length>', inherits: false, initialValue: '0px' },
    '--toast-space': { syntax: '<length>', inherits: false, initialValue: '0px' },
  },
  globalCss: {
    // What the header, the seat page's bottom bar, the floating buttons and the notifications cover
    // (src/app/reserved-space.ts; the bottom bands are each measured from the bottom of the viewport),
    // plus room for a focus ring: a control that gets focus is scrolled clear of them (WCAG 2.4.11).
    html: {
      scrollPaddingTop: 'calc(var(--header-space, 0px) + 0.5rem)',
      scrollPaddingBottom: 'calc(max(var(--bottom-bar-space, 0px), var(--fab-space, 0px), var(--toast-space, 0px)) + 0.5rem)',
    },
    // the end of the page scrolls clear of what stays at the bottom, notifications included while they
    // are up (the last footer links are not left under them; the page only grows below its end)
    body: {
      '--bottom-bar-space': 'inherit',
      '--fab-space': 'inherit',
      '--toast-space': 'inherit',
      paddingBottom: 'max(var(--bottom-bar-space, 0px), var(--fab-space, 0px), var(--toast-space, 0px))',
    },
    'html, body': {
      fontFamily: 'body',
      color: 'gray.900',
      bg: 'gray.50',
      lineHeight: 'normal',
    },
    a: { color: 'blue.700' },
    // A page's HTML from the build (build.mjs) shows its text before the app runs, but not
    // controls that do nothing yet: they keep their place and appear when the app takes over.
    '#root[data-prerendered] main :is(input, select, textarea, button)': { visibility: 'hidden' },
    ':focus-visible': { outline: '3px solid {colors.blue.700}', outlineOffset: '2px' },
    '@media (prefers-reduced-motion: reduce)': {
      '*, *::before, *::after': { transitionDuration: '0.01ms !important', scrollBehavior: 'auto !important' },
    },
  },
})

export default preset
