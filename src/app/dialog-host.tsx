import { useSignals } from '@preact/signals-react/runtime'
import { MessageDialog } from '../../design-system/dialog/index.ts'
import { pageHeading } from '../lib/focus.ts'
import { useMessageText, useT } from './use-t.ts'
import { ui } from '../app-models.ts'

/** The shared success and error dialogs, bound to the UI store (loaded when first opened). */
export default function DialogHost() {
  useSignals()
  const t = useT()
  const text = useMessageText()
  return (
    <>
      <MessageDialog
        tone="success"
        open={ui.successModalVisible.value}
        title={t('dialog.successTitle')}
        message={text(ui.successMessage.value)}
        okLabel={t('common.ok')}
        onClose={ui.closeSuccess}
        fallbackFocus={pageHeading}
      />
      <MessageDialog
        tone="error"
        open={ui.errorModalVisible.value}
        title={t('dialog.errorTitle')}
        message={text(ui.errorMessage.value)}
        okLabel={t('common.ok')}
        onClose={ui.closeError}
        fallbackFocus={pageHeading}
      />
    </>
  )
}
