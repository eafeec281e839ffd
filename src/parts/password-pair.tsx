import { PasswordInput } from '../../design-system/password-input/index.ts'
import { useT } from '../app/use-t.ts'
import { passwordProblems } from '../lib/validation.ts'
import { useMaybeT } from './form-parts.tsx'
import type { useForm } from './use-form.ts'

type Form = ReturnType<typeof useForm<Record<string, string>>>

/** The part of a `useForm` result the pair reads: a new-password field `K` and `confirmPassword`. */
export type PasswordPairForm<K extends string> = {
  values: Record<K, string>
  bind: (k: K | 'confirmPassword') => ReturnType<Form['bind']>
  shown: (k: K | 'confirmPassword') => string | undefined
}

/** Props for PasswordPair. */
export interface PasswordPairProps<K extends string> {
  /** The form (from `useForm`) that holds field `name` and `confirmPassword`. */
  form: PasswordPairForm<NoInfer<K>>
  /** Name of the new-password field (`password`, `newPassword`). */
  name: K
  /** Visible label of the new-password field, already translated. */
  label: string
}

/**
 * A new password under the SPEC rules and its confirmation (sign-up, reset,
 * change): the rules hint, and every rule still missing listed while the passenger types.
 */
export function PasswordPair<K extends string>({ form: f, name, label }: PasswordPairProps<K>) {
  const t = useT()
  const mt = useMaybeT()
  const problems = f.shown(name) ? passwordProblems(f.values[name]).map((id) => t(id)) : undefined
  const common = { autoComplete: 'new-password', showLabel: t('login.showPassword'), hideLabel: t('login.hidePassword') } as const
  return (
    <>
      <PasswordInput label={label} hint={t('login.passwordRules')} {...common} {...f.bind(name)} error={problems} />
      <PasswordInput label={t('login.confirmPassword')} {...common} {...f.bind('confirmPassword')} error={mt(f.shown('confirmPassword'))} />
    </>
  )
}
