import { useEffect, useState } from 'react'
import { loadingOverlay } from '../../styled-system/recipes'

/** Wait this long before showing the overlay, so quick loads never flash it. */
export const LOADING_OVERLAY_DELAY_MS = 300

/** Props for LoadingOverlay. */
export interface LoadingOverlayProps {
  /** Visible, translated label ("Loading…"). */
  label: string
  /** Delay before it appears; defaults to 300 ms. */
  delayMs?: number
}

/** Full-screen busy overlay; renders nothing until `delayMs` has passed while mounted. */
export function LoadingOverlay({ label, delayMs = LOADING_OVERLAY_DELAY_MS }: LoadingOverlayProps) {
  const [visible, setVisible] = useState(delayMs <= 0)
  useEffect(() => {
    if (delayMs <= 0) return
    const timer = setTimeout(() => setVisible(true), delayMs)
    return () => clearTimeout(timer)
  }, [delayMs])
  if (!visible) return null
  const s = loadingOverlay()
  return (
    <div className={s.root} role="status" aria-busy="true" aria-live="polite">
      <div className={s.spinner} aria-hidden="true" />
      <p className={s.label}>{label}</p>
    </div>
  )
}
