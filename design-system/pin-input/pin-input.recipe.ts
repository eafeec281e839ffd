import { defineSlotRecipe } from '@pandacss/dev'
import { pinInputAnatomy } from '@ark-ui/react/anatomy'

/** One-time code: a row of one-digit boxes with label, hint and error. */
export const pinInputRecipe = defineSlotRecipe({
  className: 'pin-input',
  description: 'SMS code / OTP input',
  slots: [...pinInputAnatomy.keys(), 'hint', 'error'],
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1', width: 'full' },
    label: { fontWeight: 'medium', color: 'gray.900' },
    control: { display: 'flex', gap: '2', flexWrap: 'nowrap' },
    input: {
      width: '2.75rem',
      height: '3rem',
      minWidth: '0',
      flexShrink: '1',
      textAlign: 'center',
      fontSize: 'xl',
      fontFamily: 'inherit',
      fontVariantNumeric: 'tabular-nums',
      color: 'gray.900',
      bg: 'white',
      border: '1px solid {colors.gray.500}',
      borderRadius: 'md',
      _placeholder: { color: 'gray.600' },
      _focusVisible: { outline: '3px solid {colors.blue.700}', outlineOffset: '1px' },
      '&[data-invalid]': { borderColor: 'red.700', borderWidth: '2px' },
    },
    hint: { fontSize: 'sm', color: 'gray.600' },
    error: { fontSize: 'sm', color: 'red.700', fontWeight: 'medium', minHeight: '1.25rem' },
  },
})
