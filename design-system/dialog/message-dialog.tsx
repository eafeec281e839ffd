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
}

/** The shared success / error dialog: title, message and an OK button. Closes on OK, Escape or backdrop click. */
export function MessageDialog({ tone, open, title, message, okLabel, onClose }: MessageDialogProps) {
  return (
    <Dialog.Root
      tone={tone}
      open={open}
      role={tone === 'error' ? 'alertdialog' : 'dialog'}
      onOpenChange={(d) => {
        if (!d.open) onClose()
      }}
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
