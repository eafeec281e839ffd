import { useSignals } from '@preact/signals-react/runtime'
import { Button } from '../../../design-system/button/index.ts'
import { useT } from '../../app/use-t.ts'
import { validateConfirmPassword, validatePassword, type FieldErrors } from '../../lib/validation.ts'
import { useLogin } from '../../parts/use-account.ts'
import { ServerError, form } from '../../parts/form-parts.tsx'
import { PasswordPair } from '../../parts/password-pair.tsx'
import { useForm } from '../../parts/use-form.ts'

type Fields = { password: string; confirmPassword: string }

function validate(v: Fields): FieldErrors<keyof Fields> {
  const e: FieldErrors<keyof Fields> = {}
  const p = validatePassword(v.password)
  if (p) e.password = p
  const c = validateConfirmPassword(v.password, v.confirmPassword)
  if (c) e.confirmPassword = c
  return e
}

/** After the reset OTP: a new password under the same rules, then logged in. */
export function NewPasswordStep({ onDone }: { onDone: (to: string | undefined) => void }) {
  useSignals()
  const t = useT()
  const f = useForm({ password: '', confirmPassword: '' }, validate, { password: 'input' })
  const login = useLogin()
  const pending = login.busy.value
  return (
    <form
      ref={f.formRef}
      className={form.root}
      noValidate
      onSubmit={f.submit(async (v) => {
        if (!pending) onDone(await login.setNewPassword(v.password))
      })}
    >
      <input type="text" name="username" autoComplete="username" value={login.mobile.value} readOnly hidden />
      <PasswordPair form={f} name="password" label={t('login.newPassword')} />
      <ServerError error={login.error.value} />
      <div className={form.actions}>
        <Button type="submit" aria-disabled={pending || undefined}>
          {t('login.saveNewPassword')}
        </Button>
      </div>
    </form>
  )
}
