import { defineRecipe } from '@pandacss/dev'

/** A status in a tone: a message block under a form or a short badge beside a label. */
export const statusRecipe = defineRecipe({
  className: 'status',
  description: 'Status message or badge in a tone',
  base: {
    borderWidth: '1px',
    borderStyle: 'solid',
  },
  variants: {
    tone: {
      info: { bg: 'blue.50', borderColor: 'blue.700', color: 'blue.700' },
      success: { bg: 'green.50', borderColor: 'green.700', color: 'green.700' },
      error: { bg: 'red.50', borderColor: 'red.700', color: 'red.700' },
    },
    shape: {
      message: { p: '3', borderRadius: 'md', fontWeight: 'medium' },
      badge: { display: 'inline-block', px: '3', py: '1', borderRadius: 'full', fontWeight: 'bold', fontSize: 'sm' },
    },
  },
  defaultVariants: { tone: 'info', shape: 'message' },
  // the tone follows what happened (a ticket's status, a request's outcome), so generate every variant
  staticCss: [{ tone: ['*'], shape: ['*'] }],
})
