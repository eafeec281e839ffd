export * as Dialog from './dialog.tsx'
export { MessageDialog, type MessageDialogProps } from './message-dialog.tsx'
