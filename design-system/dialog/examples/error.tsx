import { MessageDialog } from '../index.ts'

/** The error dialog, here for a seat taken by another passenger. */
export default function ErrorDialogExample() {
  return (
    <MessageDialog
      tone="error"
      open
      title="Error"
      message="This seat (A1) has been locked by another Passenger."
      okLabel="OK"
      onClose={() => undefined}
    />
  )
}
