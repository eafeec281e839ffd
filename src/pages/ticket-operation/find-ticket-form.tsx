import { useSignals } from '@preact/signals-react/runtime'
import { Button } from '../../../design-system/button/index.ts'
import { TextField } from '../../../design-system/text-field/index.ts'
import { useT } from '../../app/use-t.ts'
import type { FieldErrors } from '../../lib/validation.ts'
import { normalisePin, normalisePnr, PIN_PATTERN, PNR_PATTERN } from '../../models/ticket.ts'
import { ServerError, form, useMaybeT } from '../../parts/form-parts.tsx'
import { useForm } from '../../parts/use-form.ts'
import { useTicket } from './use-ticket.ts'

type Fields = { pnr: string; pin: string }

function validate(v: Fields): FieldErrors<keyof Fields> {
  const out: FieldErrors<keyof Fields> = {}
  const pnr = normalisePnr(v.pnr)
  if (!pnr) out.pnr = 'ticket.pnrRequired'
  else if (!PNR_PATTERN.test(pnr)) out.pnr = 'ticket.pnrInvalid'
  const pin = normalisePin(v.pin)
  if (!pin) out.pin = 'validation.pinRequired'
  else if (!PIN_PATTERN.test(pin)) out.pin = 'ticket.pinInvalid'
  return out
}

/** PNR and PIN, then Find ticket (anyone may look a ticket up). */
export function FindTicketForm({ initialPnr = '' }: { initialPnr?: string }) {
  useSignals()
  const tk = useTicket()
  const t = useT()
  const mt = useMaybeT()
  const f = useForm<Fields>({ pnr: initialPnr, pin: '' }, validate)
  const pending = tk.busy.value === 'find'
  const error = tk.error.value?.scope === 'find' ? tk.error.value : null
  return (
    <form
      ref={f.formRef}
      className={form.root}
      noValidate
      aria-labelledby="find-heading"
      onSubmit={f.submit((v) => {
        if (!pending) void tk.findByPnr(v.pnr, v.pin)
      })}
    >
      <TextField
        label={t('ticket.pnr')}
        hint={t('ticket.pnrHint')}
        autoCapitalize="characters"
        autoComplete="off"
        spellCheck={false}
        maxLength={12}
        requiredMark
        {...f.bind('pnr')}
        error={mt(f.shown('pnr'))}
      />
      <TextField
        label={t('ticket.pin')}
        inputMode="numeric"
        autoComplete="off"
        maxLength={4}
        requiredMark
        {...f.bind('pin')}
        error={mt(f.shown('pin'))}
      />
      <ServerError error={error} />
      <div className={form.actions}>
        <Button type="submit" aria-disabled={pending || undefined}>
          {pending ? t('common.loading') : t('ticket.find')}
        </Button>
      </div>
    </form>
  )
}
