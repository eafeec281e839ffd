import { StatusBadge } from '../index.ts'

/** A ticket's status beside its label. */
export default function StatusBadgeExample() {
  return (
    <p>
      Status <StatusBadge tone="success">Sold</StatusBadge>
    </p>
  )
}
