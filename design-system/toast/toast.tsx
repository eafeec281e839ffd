import { Toast as Ark, Toaster as ArkToaster, createToaster } from '@ark-ui/react/toast'
import { toast } from '../../styled-system/recipes'
import { createSlotContext } from '../lib/slot-context.tsx'

const slots = toast()
const { bindSlot } = createSlotContext(slots)

/** Notification limits from the spec: at most 3 visible, hidden after 30 s. */
export const TOAST_MAX_VISIBLE = 3
export const TOAST_DURATION_MS = 30_000

/** Below this width toasts sit at the bottom centre instead of the top end. */
export const EXTRA_SMALL_QUERY = '(max-width: 599.98px)'

const extraSmall = typeof matchMedia === 'function' && matchMedia(EXTRA_SMALL_QUERY).matches

/**
 * The app's single toast store: top-end, or bottom centre on extra-small
 * screens (decided when the toast chunk loads, i.e. at the first toast).
 */
export const toaster = createToaster({
  placement: extraSmall ? 'bottom' : 'top-end',
  max: TOAST_MAX_VISIBLE,
  duration: TOAST_DURATION_MS,
  overlap: false,
  gap: 12,
  removeDelay: 200,
  // Top-end toasts start below the header, so they never cover the navigation.
  offsets: extraSmall ? '1rem' : { top: '8.5rem', right: '1rem', bottom: '1rem', left: '1rem' },
})

export const Root = bindSlot(Ark.Root, 'root')
export const Title = bindSlot(Ark.Title, 'title')
export const Description = bindSlot(Ark.Description, 'description')
export const CloseTrigger = bindSlot(Ark.CloseTrigger, 'closeTrigger')
export const ActionTrigger = bindSlot(Ark.ActionTrigger, 'actionTrigger')

/** Props for Toaster. */
export interface ToasterProps {
  /** Accessible name of each toast's close button. */
  closeLabel: string
}

/** Renders the toasts of `toaster`; mount exactly once. */
export function Toaster({ closeLabel }: ToasterProps) {
  return (
    <ArkToaster toaster={toaster} className={slots.group}>
      {(t) => (
        <Root key={t.id}>
          <Title>{t.title}</Title>
          {t.description ? <Description>{t.description}</Description> : null}
          {t.action ? <ActionTrigger>{t.action.label}</ActionTrigger> : null}
          <CloseTrigger aria-label={closeLabel}>
            <span aria-hidden="true">×</span>
          </CloseTrigger>
        </Root>
      )}
    </ArkToaster>
  )
}
