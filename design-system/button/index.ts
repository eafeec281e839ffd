export { Button, ButtonLink, type ButtonProps, type ButtonLinkProps } from './button.tsx'
