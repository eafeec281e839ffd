import { useEffect, useRef, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { StatusMessage } from '../../../design-system/status/index.ts'
import { useT } from '../../app/use-t.ts'
import { navigate } from '../../router.ts'
import { LoginModel, type LoginStep } from '../../models/login.ts'
import { LoginContext } from '../../parts/use-account.ts'
import { useVisitModel } from '../../parts/use-visit-model.ts'
import { page } from '../../parts/page-styles.ts'
import { deferred, usePreload } from '../../parts/deferred.tsx'
import { MobileStep } from './mobile-step.tsx'
import { NewPasswordStep } from './new-password-step.tsx'
import { PasswordStep } from './password-step.tsx'
import { SignupStep } from './signup-step.tsx'
import { session } from '../../app-models.ts'

// the SMS code step (Ark PinInput) after the mobile no.
const CodeStep = deferred(() => import('./code-step.tsx').then((m) => m.CodeStep))

/** Steps that open with their own heading (focused when the step appears). */
const stepTitles: Partial<Record<LoginStep, string>> = {
  signup: 'login.signupTitle',
  verify: 'login.verifyTitle',
  forgotOtp: 'login.forgotTitle',
  newPassword: 'login.newPasswordTitle',
}

/**
 * /login: one flow from the mobile no. — password for a known number,
 * SIGNUP and the SMS code for a new one, and the forgotten-password OTP.
 * After login the passenger returns to the remembered page, or home.
 */
export default function LoginPage() {
  useSignals()
  const t = useT()
  // a page visit always starts from the mobile no.
  const login = useVisitModel(() => new LoginModel(session))
  const current = login.step.value
  // the 401 reset's message is read once, then the flag is cleared for the next visit
  const [sessionExpired] = useState(() => session.invalidSession.value)
  const stepRoot = useRef<HTMLDivElement>(null)
  const previous = useRef<LoginStep>(current)
  usePreload(CodeStep)

  useEffect(() => {
    if (sessionExpired) session.clearInvalidSession()
  }, [sessionExpired])

  useEffect(() => {
    if (previous.current === current) return
    previous.current = current
    const root = stepRoot.current
    const target =
      root?.querySelector<HTMLElement>('h2') ?? root?.querySelector<HTMLElement>('input:not([type=hidden]):not([hidden]):not([aria-hidden=true])')
    target?.focus()
  }, [current])

  const done = (to: string | undefined) => {
    if (to) navigate(to, { replace: true })
  }
  const title = stepTitles[current]

  return (
    <LoginContext.Provider value={login}>
      <h1 className={page.h1} tabIndex={-1}>
        {t('login.heading')}
      </h1>
      {sessionExpired ? <StatusMessage tone="error">{t('error.INVALID_SESSION')}</StatusMessage> : null}
      <div ref={stepRoot}>
        {title ? (
          <h2 className={page.h2} tabIndex={-1}>
            {t(title)}
          </h2>
        ) : null}
        {current === 'mobile' ? <MobileStep initial={login.mobile.value} /> : null}
        {current === 'password' ? <PasswordStep onDone={done} /> : null}
        {current === 'signup' ? <SignupStep /> : null}
        {current === 'verify' || current === 'forgotOtp' ? (
          <CodeStep key={current} purpose={current === 'verify' ? 'signup' : 'reset'} onDone={done} />
        ) : null}
        {current === 'newPassword' ? <NewPasswordStep onDone={done} /> : null}
      </div>
    </LoginContext.Provider>
  )
}
