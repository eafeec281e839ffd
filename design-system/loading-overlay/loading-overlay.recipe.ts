import { defineSlotRecipe } from '@pandacss/dev'

/** Full-screen loading overlay with a spinner and a visible label. */
export const loadingOverlayRecipe = defineSlotRecipe({
  className: 'loading-overlay',
  description: 'Full-screen busy indicator',
  slots: ['root', 'spinner', 'label'],
  base: {
    root: {
      position: 'fixed',
      inset: '0',
      zIndex: 'overlay',
      display: 'flex',
      flexDirection: 'column',
      alignItems: 'center',
      justifyContent: 'center',
      gap: '3',
      bg: 'rgba(255, 255, 255, 0.85)',
    },
    spinner: {
      width: '12',
      height: '12',
      borderRadius: 'full',
      border: '5px solid {colors.brand.100}',
      borderTopColor: 'brand.700',
      animation: 'spin 0.9s linear infinite',
      '@media (prefers-reduced-motion: reduce)': { animationDuration: '3s' },
    },
    label: { fontWeight: 'medium', color: 'gray.900' },
  },
})
