import type { ComponentProps } from 'react'
import { cx } from '../../styled-system/css'
import { button, type ButtonVariantProps } from '../../styled-system/recipes'

/** Props for Button: native button props plus the recipe variants. */
export type ButtonProps = ComponentProps<'button'> & ButtonVariantProps

/** A native `<button>` styled by the button recipe; defaults to type="button". */
export function Button({ variant, size, className, type = 'button', ...rest }: ButtonProps) {
  return <button type={type} className={cx(button({ variant, size }), className)} {...rest} />
}

/** Props for ButtonLink: an anchor that looks like a button. */
export type ButtonLinkProps = ComponentProps<'a'> & ButtonVariantProps

/** An `<a>` styled as a button, for navigation that should look like an action. */
export function ButtonLink({ variant, size, className, ...rest }: ButtonLinkProps) {
  return <a className={cx(button({ variant, size }), className)} {...rest} />
}
