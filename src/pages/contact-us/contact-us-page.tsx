import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { css } from '../../../styled-system/css'
import { Button } from '../../../design-system/button/index.ts'
import { TextField } from '../../../design-system/text-field/index.ts'
import { useT } from '../../app/use-t.ts'
import { config, displayPhone } from '../../config.ts'
import type { ContactForm } from '../../lib/validation.ts'
import { contactErrors, contactSending, contactSentCount, revalidateContactField, submitContact } from '../../stores/contact.ts'
import { page } from '../../parts/page-styles.ts'
import { FIELD_MAX } from '../../../contract/values.ts'
import { ui } from '../../app-models.ts'

const empty: ContactForm = { name: '', email: '', mobile: '', subject: '', message: '' }
const order: (keyof ContactForm)[] = ['name', 'email', 'mobile', 'subject', 'message']

const styles = {
  // minmax(0, …): a long unbreakable line (the e-mail address at a large text size) wraps instead of widening the column
  layout: css({
    display: 'grid',
    gap: '6',
    gridTemplateColumns: 'minmax(0, 1fr)',
    lg: { gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 1fr)', alignItems: 'start' },
  }),
  form: css({ display: 'flex', flexDirection: 'column', gap: '3' }),
  row: css({ display: 'grid', gap: '3', md: { gridTemplateColumns: '1fr 1fr' } }),
  aside: css({ '& p': { mb: '2' } }),
  link: css({ display: 'inline-flex', alignItems: 'center', minHeight: 'touch', maxWidth: 'full', overflowWrap: 'anywhere' }),
}

/** Contact Us: help-desk details and the contact form (errors beside each field; success dialog). */
export default function ContactUsPage() {
  useSignals()
  const t = useT()
  const [form, setForm] = useState<ContactForm>(empty)
  const formRef = useRef<HTMLFormElement>(null)
  const errors = contactErrors.value
  const sentCount = contactSentCount.value

  useEffect(() => {
    if (sentCount > 0) setForm(empty)
  }, [sentCount])

  const bind = (field: keyof ContactForm) => ({
    name: field,
    value: form[field],
    error: errors[field] ? t(errors[field]!, { max: field === 'message' ? 2000 : field === 'subject' ? 150 : 100 }) : undefined,
    onChange: (e: { currentTarget: { value: string } }) => {
      const next = { ...form, [field]: e.currentTarget.value }
      setForm(next)
      revalidateContactField(next, field)
    },
  })

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault()
    const ok = await submitContact(ui, form)
    if (!ok) {
      // Move focus to the first field with an error so its message is read out.
      const first = order.find((f) => contactErrors.value[f])
      if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus()
    }
  }

  return (
    <>
      <h1 className={page.h1} tabIndex={-1}>
        {t('contact.heading')}
      </h1>
      <p className={page.lead}>{t('contact.intro')}</p>
      <div className={styles.layout}>
        <section aria-labelledby="contact-form-title" className={page.card}>
          <h2 id="contact-form-title" className={page.h3}>
            {t('contact.formTitle')}
          </h2>
          <form ref={formRef} className={styles.form} noValidate onSubmit={onSubmit}>
            <div className={styles.row}>
              <TextField label={t('contact.name')} autoComplete="name" requiredMark maxLength={FIELD_MAX.fullName} {...bind('name')} />
              <TextField label={t('contact.email')} type="email" autoComplete="email" requiredMark {...bind('email')} />
            </div>
            <div className={styles.row}>
              <TextField
                label={t('contact.mobile')}
                type="tel"
                inputMode="numeric"
                autoComplete="tel"
                hint={t('contact.mobileHint')}
                {...bind('mobile')}
              />
              <TextField label={t('contact.subject')} requiredMark maxLength={FIELD_MAX.subject} {...bind('subject')} />
            </div>
            <TextField label={t('contact.message')} multiline requiredMark maxLength={FIELD_MAX.message} {...bind('message')} />
            <div>
              <Button type="submit" disabled={contactSending.value}>
                {contactSending.value ? t('common.sending') : t('common.send')}
              </Button>
            </div>
          </form>
        </section>
        <aside className={`${page.card} ${styles.aside}`} aria-labelledby="contact-help-title">
          <h2 id="contact-help-title" className={page.h3}>
            {t('contact.helpLine')}
          </h2>
          <p>
            <a className={styles.link} href={`tel:${config.supportPhone}`}>
              {displayPhone(config.supportPhone, ui.language.value)}
            </a>
          </p>
          <p>
            <a className={styles.link} href={`mailto:${config.supportEmail}`} lang="en">
              {config.supportEmail}
            </a>
          </p>
          <p>{t('contact.hours')}</p>
          <p>{t('contact.headOffice')}</p>
        </aside>
      </div>
    </>
  )
}
