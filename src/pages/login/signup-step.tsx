import { useSignals } from '@preact/signals-react/runtime'
import { Button } from '../../../design-system/button/index.ts'
import { TextField } from '../../../design-system/text-field/index.ts'
import { useT } from '../../app/use-t.ts'
import { toAsciiDigits, validateSignupForm } from '../../lib/validation.ts'
import { useLogin } from '../../parts/use-account.ts'
import { ServerError, form, useMaybeT } from '../../parts/form-parts.tsx'
import { PasswordPair } from '../../parts/password-pair.tsx'
import { useForm } from '../../parts/use-form.ts'
import { ProfileFields } from '../../parts/profile-fields.tsx'

/** An unknown number: the sign-up form, then the SMS code step. */
export function SignupStep() {
  useSignals()
  const t = useT()
  const mt = useMaybeT()
  const login = useLogin()
  const f = useForm({ mobile: login.mobile.value, fullName: '', email: '', city: '', password: '', confirmPassword: '' }, validateSignupForm, {
    password: 'input',
  })
  const pending = login.busy.value
  return (
    <form
      ref={f.formRef}
      className={form.root}
      noValidate
      onSubmit={f.submit((v) => {
        if (!pending) void login.signUp(v)
      })}
    >
      <p className={form.intro}>{t('login.signupIntro')}</p>
      <TextField
        label={t('login.mobile')}
        type="tel"
        inputMode="numeric"
        autoComplete="tel"
        maxLength={12}
        {...f.bind('mobile')}
        onChange={(e) => f.set('mobile', toAsciiDigits(e.currentTarget.value))}
        error={mt(f.shown('mobile'), { max: 12 })}
      />
      <ProfileFields form={f} />
      <PasswordPair form={f} name="password" label={t('login.password')} />
      <ServerError error={login.error.value} />
      <div className={form.actions}>
        <Button type="submit" aria-disabled={pending || undefined}>
          {t('login.signup')}
        </Button>
        <button type="button" className={form.linkButton} onClick={login.restartLogin}>
          {t('login.changeMobile')}
        </button>
      </div>
    </form>
  )
}
