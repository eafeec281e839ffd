import { useLayoutEffect, useRef } from 'react'
import * as Dialog from './dialog.tsx'
import { Button } from '../button/index.ts'

/** Props for MessageDialog. */
export interface MessageDialogProps {
  /** success → title "Success"; error → title "Error" (role alertdialog). */
  tone: 'success' | 'error'
  open: boolean
  /** Already-translated title ("Success" / "Error"). */
  title: string
  message: string
  /** Already-translated OK label. */
  okLabel: string
  onClose: () => void
  /** Where focus goes on close when nothing had it when the dialog opened (one the page opened by itself). */
  fallbackFocus?: () => HTMLElement | null
}

/**
 * The shared success / error dialog: title, message and an OK button. Closes on OK, Escape or
 * backdrop click; focus then goes back to the control that had it when the dialog opened, or, when
 * the page opened it by itself (an error at page load), to `fallbackFocus`, never to the page body.
 */
export function MessageDialog({ tone, open, title, message, okLabel, onClose, fallbackFocus }: MessageDialogProps) {
  const opener = useRef<HTMLElement | null>(null)
  // before the dialog takes the focus: the control that had it
  useLayoutEffect(() => {
    if (!open) return
    const active = document.activeElement
    opener.current = active instanceof HTMLElement && active !== document.body ? active : null
  }, [open])
  return (
    <Dialog.Root
      tone={tone}
      open={open}
      role={tone === 'error' ? 'alertdialog' : 'dialog'}
      onOpenChange={(d) => {
        if (!d.open) onClose()
      }}
      finalFocusEl={() => (opener.current?.isConnected ? opener.current : (fallbackFocus?.() ?? null))}
      lazyMount
      unmountOnExit
    >
      <Dialog.Overlay>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Title>{title}</Dialog.Title>
            <Dialog.Description>{message}</Dialog.Description>
            <Dialog.Actions>
              <Dialog.CloseTrigger asChild>
                <Button>{okLabel}</Button>
              </Dialog.CloseTrigger>
            </Dialog.Actions>
          </Dialog.Content>
        </Dialog.Positioner>
      </Dialog.Overlay>
    </Dialog.Root>
  )
}
