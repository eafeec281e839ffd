import { PasswordInput } from '../index.ts'

/** Login password, and a new password with the rules still missing listed. */
export default function PasswordInputStates() {
  const labels = { showLabel: 'Show password', hideLabel: 'Hide password' }
  return (
    <form noValidate>
      <PasswordInput label="Password" autoComplete="current-password" {...labels} error="Password is required" />
      <PasswordInput
        label="New password"
        autoComplete="new-password"
        hint="6 to 50 characters with one UPPERCASE letter, one lowercase letter, one number and one special symbol ~!@#$%^&*(), without spaces."
        defaultValue="abc"
        {...labels}
        error={['Password must be 6 to 50 characters', 'Must add one UPPERCASE letter', 'Must add one number', 'Must add one special symbol']}
      />
    </form>
  )
}
