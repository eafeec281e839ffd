import { useSignals } from '@preact/signals-react/runtime'
import { Button } from '../../../design-system/button/index.ts'
import { TextField } from '../../../design-system/text-field/index.ts'
import { useT } from '../../app/use-t.ts'
import { toAsciiDigits, validateMobile } from '../../lib/validation.ts'
import { useLogin } from '../../parts/use-account.ts'
import { ServerError, form, useMaybeT } from '../../parts/form-parts.tsx'
import { useForm } from '../../parts/use-form.ts'

/** Step 1: the mobile no.; the login flow decides between password and sign-up. */
export function MobileStep({ initial }: { initial: string }) {
  useSignals()
  const t = useT()
  const mt = useMaybeT()
  const login = useLogin()
  const f = useForm({ mobile: initial }, (v) => {
    const m = validateMobile(v.mobile)
    return m ? { mobile: m } : {}
  })
  const field = f.bind('mobile')
  return (
    <form
      ref={f.formRef}
      className={form.root}
      noValidate
      onSubmit={f.submit((v) => {
        if (!login.busy.value) void login.submitMobile(v.mobile)
      })}
    >
      <p className={form.intro}>{t('login.intro')}</p>
      <TextField
        label={t('login.mobile')}
        hint={t('login.mobileHint')}
        type="tel"
        inputMode="numeric"
        autoComplete="tel"
        maxLength={12}
        {...field}
        onChange={(e) => f.set('mobile', toAsciiDigits(e.currentTarget.value))}
        error={mt(f.shown('mobile'))}
      />
      <ServerError error={login.error.value} />
      <div className={form.actions}>
        <Button type="submit" aria-disabled={login.busy.value || undefined}>
          {t('login.continue')}
        </Button>
      </div>
    </form>
  )
}
