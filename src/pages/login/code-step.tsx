import { useId, useRef, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Button } from '../../../design-system/button/index.ts'
import { PinInput } from '../../../design-system/pin-input/index.ts'
import { StatusMessage } from '../../../design-system/status/index.ts'
import { useT } from '../../app/use-t.ts'
import { formatCountdown } from '../../lib/dates.ts'
import { CODE_LENGTH, validateCode } from '../../lib/validation.ts'
import { useLogin } from '../../parts/use-account.ts'
import { ServerError, form, useMaybeT } from '../../parts/form-parts.tsx'
import { useForm } from '../../parts/use-form.ts'
import { ui } from '../../app-models.ts'

/**
 * The 6-digit SMS code: the sign-up verification code or the password-reset
 * OTP. Resend Code stays disabled for 180 s with a visible countdown.
 */
export function CodeStep({ purpose, onDone }: { purpose: 'signup' | 'reset'; onDone: (to: string | undefined) => void }) {
  useSignals()
  const t = useT()
  const mt = useMaybeT()
  const login = useLogin()
  const countdownId = useId()
  const codeBox = useRef<HTMLDivElement>(null)
  const [resent, setResent] = useState(false)
  const requiredId = purpose === 'signup' ? 'validation.verificationCodeRequired' : 'validation.otpRequired'
  const f = useForm({ code: '' }, (v) => {
    const m = validateCode(v.code, requiredId)
    return m ? { code: m } : {}
  })
  const pending = login.busy.value
  const seconds = login.resendSecondsLeft.value

  const verify = async (code: string) => {
    if (pending) return
    setResent(false)
    if (purpose === 'signup') onDone(await login.verifyMobile(code))
    else await login.verifyResetOtp(code)
  }

  const resend = async () => {
    setResent(false)
    await (purpose === 'signup' ? login.resendCode() : login.resendResetOtp())
    if (!login.error.value) {
      setResent(true)
      f.reset()
    }
    // the disabled button loses focus: continue in the code boxes
    codeBox.current?.querySelector<HTMLInputElement>('input[data-index="0"]')?.focus()
  }

  return (
    <form ref={f.formRef} className={form.root} noValidate onSubmit={f.submit((v) => void verify(v.code))}>
      <p className={form.intro}>{t(purpose === 'signup' ? 'login.verifyIntro' : 'login.otpIntro', { mobile: login.mobile.value })}</p>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: only notes that focus left the code boxes (to show their error); the boxes are the controls */}
      <div ref={codeBox} data-field="code" onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && f.visit('code')}>
        <PinInput
          label={t(purpose === 'signup' ? 'login.code' : 'login.otp')}
          boxLabel={(i, count) => t('login.codeDigit', { index: i + 1, count })}
          count={CODE_LENGTH}
          name="code"
          value={f.values.code}
          onValueChange={(v) => f.set('code', v)}
          onValueComplete={(v) => void verify(v)}
          error={mt(f.shown('code'))}
        />
      </div>
      <ServerError error={login.error.value} />
      <StatusMessage tone="success">{resent ? t('login.codeSent') : ''}</StatusMessage>
      <div className={form.actions}>
        <Button type="submit" aria-disabled={pending || undefined}>
          {t('login.verify')}
        </Button>
        <Button
          variant="outline"
          disabled={!login.canResend.value || pending}
          aria-describedby={seconds > 0 ? countdownId : undefined}
          onClick={() => void resend()}
        >
          {t('login.resendCode')}
        </Button>
      </div>
      {seconds > 0 ? (
        <p id={countdownId} className={form.intro}>
          {t('login.resendIn', { time: formatCountdown(seconds, ui.language.value) })}
        </p>
      ) : null}
      <div>
        <button type="button" className={form.linkButton} onClick={login.restartLogin}>
          {t('login.backToLogin')}
        </button>
      </div>
    </form>
  )
}
