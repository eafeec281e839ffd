import { defineSlotRecipe } from '@pandacss/dev'
import { dialogAnatomy } from '@ark-ui/react/anatomy'

/** Modal dialog: dimmed backdrop, centred card, title, message and actions. */
export const dialogRecipe = defineSlotRecipe({
  className: 'dialog',
  description: 'Success / error message dialog',
  slots: [...dialogAnatomy.keys(), 'actions'],
  base: {
    backdrop: {
      position: 'fixed',
      inset: '0',
      bg: 'rgba(0, 0, 0, 0.55)',
      zIndex: 'modal',
    },
    positioner: {
      position: 'fixed',
      inset: '0',
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'center',
      p: '4',
      zIndex: 'modal',
    },
    content: {
      bg: 'white',
      color: 'gray.900',
      borderRadius: 'md',
      boxShadow: 'lg',
      width: 'full',
      maxWidth: '26rem',
      p: '6',
      borderTopWidth: '6px',
      borderTopStyle: 'solid',
      _focusVisible: { outline: '3px solid {colors.blue.700}', outlineOffset: '2px' },
    },
    title: { fontSize: 'xl', fontWeight: 'bold', mb: '2' },
    description: { fontSize: 'md', lineHeight: 'normal', color: 'gray.800' },
    actions: { display: 'flex', justifyContent: 'flex-end', gap: '2', mt: '6' },
  },
  variants: {
    tone: {
      success: { content: { borderTopColor: 'green.700' }, title: { color: 'green.700' } },
      error: { content: { borderTopColor: 'red.700' }, title: { color: 'red.700' } },
      neutral: { content: { borderTopColor: 'brand.700' } },
    },
  },
  defaultVariants: { tone: 'neutral' },
  // tone is chosen at runtime (success / error), so generate every variant
  staticCss: [{ tone: ['*'] }],
})
