import { defineSlotRecipe } from '@pandacss/dev'
import { passwordInputAnatomy } from '@ark-ui/react/anatomy'

/** Password field: label, input with a show/hide button, hint and error messages below. */
export const passwordInputRecipe = defineSlotRecipe({
  className: 'password-input',
  description: 'Password input with visibility toggle, rules hint and errors',
  slots: [...passwordInputAnatomy.keys(), 'hint', 'error', 'errorList'],
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1', width: 'full' },
    label: { fontWeight: 'medium', color: 'gray.900' },
    control: {
      display: 'flex',
      alignItems: 'stretch',
      bg: 'white',
      border: '1px solid {colors.gray.500}',
      borderRadius: 'md',
      _focusWithin: { outline: '3px solid {colors.blue.700}', outlineOffset: '1px' },
      '&[data-invalid]': { borderColor: 'red.700', borderWidth: '2px' },
    },
    input: {
      flex: '1',
      minWidth: '0',
      minHeight: 'touch',
      px: '3',
      py: '2',
      fontSize: 'md',
      fontFamily: 'inherit',
      color: 'gray.900',
      bg: 'transparent',
      border: 'none',
      borderRadius: 'md',
      _focusVisible: { outline: 'none' },
    },
    visibilityTrigger: {
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'center',
      minWidth: 'touch',
      minHeight: 'touch',
      color: 'gray.800',
      bg: 'transparent',
      border: 'none',
      borderRadius: 'md',
      cursor: 'pointer',
      _hover: { bg: 'gray.100' },
      _focusVisible: { outline: '3px solid {colors.blue.700}', outlineOffset: '-3px' },
    },
    indicator: { display: 'inline-flex', '& svg': { width: '1.25rem', height: '1.25rem' } },
    hint: { fontSize: 'sm', color: 'gray.600' },
    error: { fontSize: 'sm', color: 'red.700', fontWeight: 'medium', minHeight: '1.25rem' },
    errorList: { listStyle: 'none', m: '0', p: '0', display: 'flex', flexDirection: 'column', gap: '0.5' },
  },
})
