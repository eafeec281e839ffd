import { TextField } from '../../design-system/text-field/index.ts'
import { FIELD_MAX } from '../../contract/values.ts'
import { useT } from '../app/use-t.ts'
import { useMaybeT } from './form-parts.tsx'
import type { useForm } from './use-form.ts'

type Form = ReturnType<typeof useForm<Record<string, string>>>
type Field = 'fullName' | 'email' | 'city'

/** The part of a `useForm` result the fields read: `fullName`, `email` and `city`. */
export type ProfileFieldsForm = {
  bind: (k: Field) => ReturnType<Form['bind']>
  shown: (k: Field) => string | undefined
}

/** The profile's own fields (full name, e-mail, city), as sign-up and the profile page ask for them. */
export function ProfileFields({ form: f }: { form: ProfileFieldsForm }) {
  const t = useT()
  const mt = useMaybeT()
  return (
    <>
      <TextField
        label={t('login.fullName')}
        autoComplete="name"
        {...f.bind('fullName')}
        error={mt(f.shown('fullName'), { max: FIELD_MAX.fullName })}
      />
      <TextField
        label={t('login.email')}
        type="email"
        autoComplete="email"
        {...f.bind('email')}
        error={mt(f.shown('email'), { max: FIELD_MAX.email })}
      />
      <TextField label={t('login.city')} autoComplete="address-level2" {...f.bind('city')} error={mt(f.shown('city'), { max: FIELD_MAX.city })} />
    </>
  )
}
