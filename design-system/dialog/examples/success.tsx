import { MessageDialog } from '../index.ts'

/** The success dialog as the app shows it after sending the contact form. */
export default function SuccessDialogExample() {
  return (
    <MessageDialog
      tone="success"
      open
      title="Success"
      message="Thank you. Your message has been sent; we will reply by e-mail."
      okLabel="OK"
      onClose={() => undefined}
    />
  )
}
