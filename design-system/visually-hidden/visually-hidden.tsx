import type { ComponentProps, ReactNode } from 'react'
import { css } from '../../styled-system/css'

const hidden = css({ srOnly: true })

/** Content for screen readers only. */
export function VisuallyHidden(props: ComponentProps<'span'>) {
  return <span {...props} className={hidden} />
}

/** Props for LiveRegion. */
export interface LiveRegionProps {
  /** Text to announce (a part of it may carry its own `lang`); changing it triggers an announcement. */
  message: ReactNode
  /** polite (default) waits for the user to pause; assertive interrupts. */
  politeness?: 'polite' | 'assertive'
}

/** A visually hidden live region that announces `message` whenever it changes. */
export function LiveRegion({ message, politeness = 'polite' }: LiveRegionProps) {
  return (
    <div className={hidden} role={politeness === 'assertive' ? 'alert' : 'status'} aria-live={politeness} aria-atomic="true">
      {message}
    </div>
  )
}
