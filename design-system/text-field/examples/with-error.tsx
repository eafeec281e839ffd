import { TextField } from '../index.ts'

/** Valid, hinted and invalid fields. */
export default function TextFieldStates() {
  return (
    <form noValidate>
      <TextField label="Full name" requiredMark defaultValue="Rahima Akter" />
      <TextField label="Mobile no. (optional)" hint="For example 01712345678" type="tel" />
      <TextField label="Email" requiredMark type="email" defaultValue="rahima@" error="Please enter a valid email" />
      <TextField label="Message" multiline requiredMark error="Message is required" />
    </form>
  )
}
