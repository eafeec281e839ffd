import type { ComponentProps, ReactNode } from 'react'
import { cx } from '../../styled-system/css'
import { status, type StatusVariantProps } from '../../styled-system/recipes'

/** The tones a status comes in. */
export type StatusTone = NonNullable<StatusVariantProps['tone']>

/** Props for StatusMessage. */
export interface StatusMessageProps {
  tone: StatusTone
  /** `polite` (default, role="status") waits for the user to pause; `assertive` (role="alert") interrupts, for errors. */
  politeness?: 'polite' | 'assertive'
  /** The message; nothing shows while it is empty. */
  children?: ReactNode
}

/**
 * A message about what just happened (saved, code sent, a server error). The live
 * region is always there and only its text changes, so each new message is announced.
 */
export function StatusMessage({ tone, politeness = 'polite', children }: StatusMessageProps) {
  return (
    <div role={politeness === 'assertive' ? 'alert' : 'status'} aria-atomic="true">
      {children ? <p className={status({ tone, shape: 'message' })}>{children}</p> : null}
    </div>
  )
}

/** Props for StatusBadge: span props plus the tone. */
export type StatusBadgeProps = ComponentProps<'span'> & { tone: StatusTone }

/** A short status beside its label (a ticket's Sold or Cancelled); not a live region. */
export function StatusBadge({ tone, className, ...rest }: StatusBadgeProps) {
  return <span className={cx(status({ tone, shape: 'badge' }), className)} {...rest} />
}
