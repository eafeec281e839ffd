export { LoadingOverlay, LOADING_OVERLAY_DELAY_MS, type LoadingOverlayProps } from './loading-overlay.tsx'
