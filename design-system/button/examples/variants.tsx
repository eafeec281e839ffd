import { Button, ButtonLink } from '../index.ts'

/** Every button variant, plus a link styled as a button. */
export default function ButtonVariants() {
  return (
    <div>
      <Button>Search trips</Button>
      <Button variant="outline">Cancel ticket</Button>
      <Button variant="ghost">Clear filters</Button>
      <Button variant="danger">Cancel booking</Button>
      <Button disabled>Sending…</Button>
      <ButtonLink href="/">Go back to the home page</ButtonLink>
    </div>
  )
}
