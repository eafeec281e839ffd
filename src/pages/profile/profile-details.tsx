import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Button } from '../../../design-system/button/index.ts'
import { StatusMessage } from '../../../design-system/status/index.ts'
import type { Passenger } from '../../../contract/schemas.ts'
import { useT } from '../../app/use-t.ts'
import { validateProfileForm } from '../../lib/validation.ts'
import { localizeDigits } from '../../lib/dates.ts'
import { useAccount } from '../../parts/use-account.ts'
import { ServerError, form } from '../../parts/form-parts.tsx'
import { page } from '../../parts/page-styles.ts'
import { useForm } from '../../parts/use-form.ts'
import { ProfileFields } from '../../parts/profile-fields.tsx'
import { ui } from '../../app-models.ts'

function DetailsForm({ p, onSaved }: { p: Passenger; onSaved: (saved: boolean) => void }) {
  useSignals()
  const { busy, errors, updateProfile } = useAccount()
  const t = useT()
  const f = useForm({ fullName: p.fullName, email: p.email, city: p.city }, validateProfileForm)
  const pending = busy.value.profile
  return (
    <form
      ref={f.formRef}
      className={form.root}
      noValidate
      onChange={() => onSaved(false)}
      onSubmit={f.submit(async (v) => {
        if (pending) return
        onSaved(await updateProfile(v))
      })}
    >
      <div className={form.readOnly}>
        <span className={form.readOnlyLabel}>{t('profile.mobile')}</span>
        <span className={form.readOnlyValue}>{localizeDigits(p.mobile, ui.language.value)}</span>
        <span className={page.muted}>{t('profile.mobileNote')}</span>
      </div>
      <ProfileFields form={f} />
      <ServerError error={errors.value.profile} />
      <div className={form.actions}>
        <Button type="submit" aria-disabled={pending || undefined}>
          {t('profile.save')}
        </Button>
      </div>
    </form>
  )
}

/** Full name, e-mail and city (the mobile no. is shown, not editable). */
export function ProfileDetails() {
  useSignals()
  const { profile } = useAccount()
  const t = useT()
  const [saved, setSaved] = useState(false)
  const p = profile.value
  return (
    <section aria-labelledby="profile-details" className={page.card}>
      <h2 id="profile-details" className={page.h3}>
        {t('profile.detailsTitle')}
      </h2>
      {p ? (
        <DetailsForm
          // a changed record from the server refills the form
          key={`${p.id}:${p.fullName}:${p.email}:${p.city}`}
          p={p}
          onSaved={setSaved}
        />
      ) : null}
      <StatusMessage tone="success">{saved ? t('profile.saved') : ''}</StatusMessage>
    </section>
  )
}
