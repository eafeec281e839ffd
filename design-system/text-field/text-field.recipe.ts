import { defineSlotRecipe } from '@pandacss/dev'

/** Labelled text input with its error message directly below. */
export const textFieldRecipe = defineSlotRecipe({
  className: 'text-field',
  description: 'Text input with label and error message',
  slots: ['root', 'label', 'required', 'input', 'hint', 'error'],
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1', width: 'full' },
    label: { fontWeight: 'medium', color: 'gray.900' },
    required: { color: 'red.700', ms: '1' },
    input: {
      minHeight: 'touch',
      width: 'full',
      px: '3',
      py: '2',
      fontSize: 'md',
      fontFamily: 'inherit',
      color: 'gray.900',
      bg: 'white',
      border: '1px solid {colors.gray.500}',
      borderRadius: 'md',
      _focusVisible: { outline: '3px solid {colors.blue.700}', outlineOffset: '1px' },
      '&[aria-invalid=true]': { borderColor: 'red.700', borderWidth: '2px' },
      '&:is(textarea)': { minHeight: '8rem', resize: 'vertical' },
    },
    hint: { fontSize: 'sm', color: 'gray.600' },
    error: { fontSize: 'sm', color: 'red.700', fontWeight: 'medium', minHeight: '1.25rem' },
  },
})
