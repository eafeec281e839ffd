import { useSignals } from '@preact/signals-react/runtime'
import { MessageDialog } from '../../design-system/dialog/index.ts'
import { closeError, closeSuccess, errorMessage, errorModalVisible, successMessage, successModalVisible } from '../stores/ui.ts'
import { pageHeading } from '../lib/focus.ts'
import { useMessageText, useT } from './use-t.ts'

/** The shared success and error dialogs, bound to the UI store (loaded when first opened). */
export default function DialogHost() {
  useSignals()
  const t = useT()
  const text = useMessageText()
  return (
    <>
      <MessageDialog
        tone="success"
        open={successModalVisible.value}
        title={t('dialog.successTitle')}
        message={text(successMessage.value)}
        okLabel={t('common.ok')}
        onClose={closeSuccess}
        fallbackFocus={pageHeading}
      />
      <MessageDialog
        tone="error"
        open={errorModalVisible.value}
        title={t('dialog.errorTitle')}
        message={text(errorMessage.value)}
        okLabel={t('common.ok')}
        onClose={closeError}
        fallbackFocus={pageHeading}
      />
    </>
  )
}
