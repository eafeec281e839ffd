import { StatusMessage } from '../index.ts'

/** A message in each tone: a confirmation, a note, and a server error read out at once. */
export default function StatusMessages() {
  return (
    <div>
      <StatusMessage tone="success">Your profile was saved.</StatusMessage>
      <StatusMessage tone="info">We are confirming your payment with the bank.</StatusMessage>
      <StatusMessage tone="error" politeness="assertive">
        These seats are NOT available
      </StatusMessage>
    </div>
  )
}
