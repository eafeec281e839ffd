import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Button } from '../../../design-system/button/index.ts'
import { PasswordInput } from '../../../design-system/password-input/index.ts'
import { StatusMessage } from '../../../design-system/status/index.ts'
import { useT } from '../../app/use-t.ts'
import { validateChangePasswordForm } from '../../lib/validation.ts'
import { useAccount } from '../../parts/use-account.ts'
import { ServerError, form, useMaybeT } from '../../parts/form-parts.tsx'
import { page } from '../../parts/page-styles.ts'
import { PasswordPair } from '../../parts/password-pair.tsx'
import { useForm } from '../../parts/use-form.ts'

/** Current password, new password (same rules as sign-up) and its confirmation. */
export function ChangePassword() {
  useSignals()
  const { busy, changePassword, errors, profile } = useAccount()
  const t = useT()
  const mt = useMaybeT()
  const [changed, setChanged] = useState(false)
  const f = useForm({ currentPassword: '', newPassword: '', confirmPassword: '' }, validateChangePasswordForm, { newPassword: 'input' })
  const pending = busy.value.password
  return (
    <section aria-labelledby="profile-password" className={page.card}>
      <h2 id="profile-password" className={page.h3}>
        {t('profile.passwordTitle')}
      </h2>
      <form
        ref={f.formRef}
        className={form.root}
        noValidate
        onChange={() => setChanged(false)}
        onSubmit={f.submit(async (v) => {
          if (pending) return
          if (await changePassword(v.currentPassword, v.newPassword)) {
            f.reset()
            setChanged(true)
          }
        })}
      >
        <input type="text" name="username" autoComplete="username" value={profile.value?.mobile ?? ''} readOnly hidden />
        <PasswordInput
          label={t('profile.currentPassword')}
          autoComplete="current-password"
          showLabel={t('login.showPassword')}
          hideLabel={t('login.hidePassword')}
          {...f.bind('currentPassword')}
          error={mt(f.shown('currentPassword'))}
        />
        <PasswordPair form={f} name="newPassword" label={t('login.newPassword')} />
        <ServerError error={errors.value.password} />
        <div className={form.actions}>
          <Button type="submit" aria-disabled={pending || undefined}>
            {t('profile.changePassword')}
          </Button>
        </div>
      </form>
      <StatusMessage tone="success">{changed ? t('profile.passwordChanged') : ''}</StatusMessage>
    </section>
  )
}
