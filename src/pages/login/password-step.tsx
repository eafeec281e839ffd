import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Button } from '../../../design-system/button/index.ts'
import { PasswordInput } from '../../../design-system/password-input/index.ts'
import { useT } from '../../app/use-t.ts'
import { useLogin } from '../../parts/use-account.ts'
import { Checkbox, ServerError, form, useMaybeT } from '../../parts/form-parts.tsx'
import { useForm } from '../../parts/use-form.ts'
import { FIELD_MAX } from '../../../contract/values.ts'

/** A known number: password, Stay signed in, Forgot your password, LOGIN. */
export function PasswordStep({ onDone }: { onDone: (to: string | undefined) => void }) {
  useSignals()
  const t = useT()
  const mt = useMaybeT()
  const flow = useLogin()
  const [stay, setStay] = useState(false)
  const f = useForm({ password: '' }, (v) => (v.password ? {} : { password: 'validation.passwordRequired' }))
  const pending = flow.busy.value
  return (
    <form
      ref={f.formRef}
      className={form.root}
      noValidate
      onSubmit={f.submit(async (v) => {
        if (!pending) onDone(await flow.login(v.password, stay))
      })}
    >
      <p className={form.intro}>{t('login.passwordIntro', { mobile: flow.mobile.value })}</p>
      <div>
        <button type="button" className={form.linkButton} onClick={flow.restartLogin}>
          {t('login.changeMobile')}
        </button>
      </div>
      {/* lets password managers file the password under the mobile no. */}
      <input type="text" name="username" autoComplete="username" value={flow.mobile.value} readOnly hidden />
      <PasswordInput
        label={t('login.password')}
        autoComplete="current-password"
        showLabel={t('login.showPassword')}
        hideLabel={t('login.hidePassword')}
        maxLength={FIELD_MAX.password}
        {...f.bind('password')}
        error={mt(f.shown('password'))}
      />
      <Checkbox label={t('login.staySignedIn')} checked={stay} onChange={(e) => setStay(e.currentTarget.checked)} />
      {/* a number locked after wrong passwords can still get in with an SMS code */}
      <ServerError error={flow.error.value} ids={{ TOO_MANY_ATTEMPTS: 'login.tooManyPasswords' }} />
      <div className={form.actions}>
        <Button type="submit" aria-disabled={pending || undefined}>
          {t('login.submit')}
        </Button>
        <button type="button" className={form.linkButton} disabled={pending} onClick={() => void flow.forgotPassword()}>
          {t('login.forgotPassword')}
        </button>
      </div>
    </form>
  )
}
