import { defineSlotRecipe } from '@pandacss/dev'
import { dialogAnatomy } from '@ark-ui/react/anatomy'

/** Side drawer (220 px) built on the dialog machine; used for the collapsed menu. */
export const drawerRecipe = defineSlotRecipe({
  className: 'drawer',
  description: 'Side drawer for the mobile / tablet menu',
  slots: [...dialogAnatomy.keys(), 'header', 'body'],
  base: {
    backdrop: { position: 'fixed', inset: '0', bg: 'rgba(0, 0, 0, 0.55)', zIndex: 'modal' },
    positioner: {
      position: 'fixed',
      insetBlock: '0',
      insetInlineStart: '0',
      display: 'flex',
      zIndex: 'modal',
    },
    content: {
      width: 'drawer',
      height: '100dvh',
      bg: 'white',
      color: 'gray.900',
      boxShadow: 'lg',
      display: 'flex',
      flexDirection: 'column',
      overflowY: 'auto',
      _focusVisible: { outline: '3px solid {colors.blue.700}', outlineOffset: '-3px' },
    },
    header: {
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'space-between',
      ps: '4',
      pe: '1',
      py: '1',
      borderBottom: '1px solid {colors.gray.200}',
    },
    title: { fontSize: 'lg', fontWeight: 'bold' },
    body: { p: '2', display: 'flex', flexDirection: 'column', gap: '1' },
    closeTrigger: {
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'center',
      width: 'touch',
      height: 'touch',
      bg: 'transparent',
      border: 'none',
      borderRadius: 'sm',
      color: 'gray.900',
      fontSize: '2xl',
      cursor: 'pointer',
      _hover: { bg: 'gray.100' },
      _focusVisible: { outline: '3px solid {colors.blue.700}', outlineOffset: '0' },
    },
  },
})
