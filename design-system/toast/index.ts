export * as Toast from './toast.tsx'
export { toaster, Toaster, TOAST_MAX_VISIBLE, TOAST_DURATION_MS } from './toast.tsx'
