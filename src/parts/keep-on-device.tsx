import { useEffect, useId, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import type { Reservation } from '../../contract/schemas.ts'
import { useT } from '../app/use-t.ts'
import { savedTickets } from '../stores/saved-tickets-later.ts'
import { Checkbox } from './form-parts.tsx'
import { page } from './page-styles.ts'
import { session } from '../app-models.ts'

/**
 * "Keep this ticket on this device" (off by default): the saved copy then stays after the
 * tab closes or the session ends (not after LOGOUT), shown to the account that kept it and,
 * offline, to whoever types its PIN; unticked, no kept copy of it is left. Not offered with Stay signed in: that session's copies
 * are on the device until LOGOUT anyway. Nothing until the saved-tickets store has said
 * whether it is kept.
 */
export function KeepOnDevice({ reservation: r }: { reservation: Reservation }) {
  useSignals()
  const t = useT()
  const hint = useId()
  const owner = session.passenger.value?.id ?? null
  // null: not offered (a Stay-signed-in session, or the store is on its way)
  const [kept, setKept] = useState<boolean | null>(null)
  const keepable = !!r.pnr && !!r.pin
  useEffect(() => {
    setKept(null)
    if (!keepable) return
    let live = true
    savedTickets(session).then(
      (s) => live && setKept(owner !== null && s.rememberedPassenger() === owner ? null : s.isKept(r.id)),
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [keepable, owner, r.id])
  if (kept === null) return null
  return (
    <div data-print="hide">
      <Checkbox
        label={t('ticket.keepOnDevice')}
        aria-describedby={hint}
        checked={kept}
        onChange={(e) => {
          const keep = e.currentTarget.checked
          setKept(keep)
          void savedTickets(session).then((s) => s.keepOnDevice(owner, r, keep))
        }}
      />
      <p id={hint} className={page.muted}>
        {t('ticket.keepOnDeviceHint')}
      </p>
    </div>
  )
}
