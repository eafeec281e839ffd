import { LoadingOverlay } from '../index.ts'

/** The overlay shown at once (no delay). */
export default function LoadingOverlayVisible() {
  return <LoadingOverlay label="Loading…" delayMs={0} />
}
