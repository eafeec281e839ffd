import { useEffect, useRef, type FocusEvent } from 'react'
import { Toast as Ark, Toaster as ArkToaster, createToaster } from '@ark-ui/react/toast'
import { toast } from '../../styled-system/recipes'
import { createSlotContext } from '../lib/slot-context.tsx'

const slots = toast()
const { bindSlot } = createSlotContext(slots)

/** Notification limits from the spec: at most 3 visible, hidden after 30 s. */
export const TOAST_MAX_VISIBLE = 3
export const TOAST_DURATION_MS = 30_000

/** Below this width (the `sm` breakpoint, in em so it follows the text size) toasts sit at the bottom centre. */
export const EXTRA_SMALL_QUERY = '(max-width: 37.49em)'

const extraSmall = typeof matchMedia === 'function' && matchMedia(EXTRA_SMALL_QUERY).matches

/** The bands the toasts sit above (`offsets.bottom`). */
const OFFSET_BANDS = ['--bottom-bar-space', '--fab-space'] as const

/**
 * The app's single toast store: bottom end, or bottom centre on extra-small screens
 * (decided when the toast chunk loads, i.e. at the first toast). At the bottom, above
 * anything the page keeps there (`--bottom-bar-space`, `--fab-space`), the page can keep a focused control
 * clear of them by scroll padding; at the top they sat over the page's side column.
 */
export const toaster = createToaster({
  placement: extraSmall ? 'bottom' : 'bottom-end',
  max: TOAST_MAX_VISIBLE,
  duration: TOAST_DURATION_MS,
  overlap: false,
  gap: 12,
  removeDelay: 200,
  // above the seat page's bottom bar and the floating buttons (Scroll to top), whichever reaches higher
  offsets: { top: '1rem', right: '1rem', bottom: 'calc(max(var(--bottom-bar-space, 0px), var(--fab-space, 0px)) + 1rem)', left: '1rem' },
})

export const Root = bindSlot(Ark.Root, 'root')
export const Title = bindSlot(Ark.Title, 'title')
export const Description = bindSlot(Ark.Description, 'description')
export const CloseTrigger = bindSlot(Ark.CloseTrigger, 'closeTrigger')
export const ActionTrigger = bindSlot(Ark.ActionTrigger, 'actionTrigger')

/** Props for Toaster. */
export interface ToasterProps {
  /** Accessible name of the notifications region, in the page's language. */
  label: string
  /** Accessible name of each toast's close button. */
  closeLabel: string
  /** Told the height of the band the open toasts cover at the bottom of the viewport (0 when none). */
  onCoverChange?: (px: number) => void
}

/**
 * The band open toasts cover, from the top of the highest one to the bottom of the viewport: with
 * the invisible "ghost" strips Ark puts above each toast (the gap, so hovering from one toast to the
 * next does not resume them), which take clicks too.
 */
function coveredHeight(group: HTMLElement): number {
  const tops: number[] = []
  for (const root of group.querySelectorAll<HTMLElement>('[data-part=root][data-state=open]')) {
    tops.push(root.getBoundingClientRect().top)
    for (const ghost of root.querySelectorAll<HTMLElement>(':scope > [data-ghost]')) {
      if (getComputedStyle(ghost).pointerEvents !== 'none') tops.push(ghost.getBoundingClientRect().top)
    }
  }
  return tops.length ? Math.max(0, Math.ceil(window.innerHeight - Math.min(...tops))) : 0
}

/**
 * Renders the toasts of `toaster`; mount exactly once. Closing a toast (its button, or Escape
 * while it has focus) gives focus back to where it was before it entered the region, or to the
 * page's heading, never to the page body.
 */
export function Toaster({ label, closeLabel, onCoverChange }: ToasterProps) {
  const group = useRef<HTMLDivElement>(null)
  const returnTo = useRef<HTMLElement | null>(null)

  // The bands the page keeps at the bottom are variables on <html> that are not inherited (design-system/preset.ts:
  // an inherited one restyled the whole page at each change): the group, whose offsets read them, takes its own
  // copy whenever they change. First, so the toasts have moved when they are measured below.
  useEffect(() => {
    const el = group.current
    if (!el) return
    const root = document.documentElement
    const copy = () => {
      for (const name of OFFSET_BANDS) {
        const value = root.style.getPropertyValue(name)
        if (value) el.style.setProperty(name, value)
        else el.style.removeProperty(name)
      }
    }
    copy()
    const watch = new MutationObserver(copy)
    watch.observe(root, { attributes: true, attributeFilter: ['style'] })
    return () => watch.disconnect()
  }, [])

  useEffect(() => {
    const el = group.current
    if (!el || !onCoverChange) return
    let last = -1
    const report = () => {
      const px = coveredHeight(el)
      if (px !== last) onCoverChange((last = px))
    }
    const resize = new ResizeObserver(report)
    const mutations = new MutationObserver(() => {
      for (const child of el.querySelectorAll('[data-part=root]')) resize.observe(child)
      report()
    })
    // a toast slides in, moves up when another comes or goes, and grows, by transitions of its
    // position and height (style variables Ark sets): measured again when each one settles, since
    // a measure taken as it starts sees the toast where it was (issue 24: 130 px reserved for 210)
    mutations.observe(el, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-state', 'style'] })
    // the toasts sit above the bands the page keeps at the bottom (offsets above): when one of those
    // variables on <html> changes (Scroll to top appears), the toasts move without a transition
    const bands = new MutationObserver(report)
    bands.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] })
    el.addEventListener('transitionend', report)
    el.addEventListener('transitioncancel', report)
    window.addEventListener('resize', report)
    return () => {
      resize.disconnect()
      mutations.disconnect()
      bands.disconnect()
      el.removeEventListener('transitionend', report)
      el.removeEventListener('transitioncancel', report)
      window.removeEventListener('resize', report)
      onCoverChange(0)
    }
  }, [onCoverChange])

  const giveFocusBack = (closing: HTMLElement | null) => {
    const back = returnTo.current
    const other = [...(group.current?.querySelectorAll<HTMLElement>('[data-part=root][data-state=open]') ?? [])].find((r) => r !== closing)
    const heading = document.querySelector<HTMLElement>('main h1')
    if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1
    const target = back?.isConnected ? back : (other?.querySelector<HTMLElement>('[data-part=close-trigger]') ?? heading)
    target?.focus({ preventScroll: !!back?.isConnected })
  }

  return (
    <ArkToaster
      ref={group}
      toaster={toaster}
      className={slots.group}
      aria-label={label}
      // each toast is its own polite status: the group around them being a live region too made a
      // screen reader say each message twice
      aria-live="off"
      onFocus={(e: FocusEvent<HTMLDivElement>) => {
        const from = e.relatedTarget
        if (from instanceof HTMLElement && !e.currentTarget.contains(from)) returnTo.current = from
        // the notifications' key (Alt+T) focuses the group, which has no height of its own (its toasts
        // are placed by transforms): focus goes on to the first toast, where it can be seen
        // (a microtask later: Ark first notes where focus came from, to give it back when it leaves)
        if (e.target === e.currentTarget) {
          const first = e.currentTarget.querySelector<HTMLElement>('[data-part=root][data-state=open]')
          if (first) queueMicrotask(() => first.focus())
        }
      }}
    >
      {(t) => (
        <Root
          key={t.id}
          onKeyDown={(e) => {
            if (e.key === 'Escape') giveFocusBack(e.currentTarget)
          }}
        >
          <Title>{t.title}</Title>
          {t.description ? <Description>{t.description}</Description> : null}
          {t.action ? <ActionTrigger>{t.action.label}</ActionTrigger> : null}
          <CloseTrigger aria-label={closeLabel} onClick={(e) => giveFocusBack(e.currentTarget.closest('[data-part=root]'))}>
            <span aria-hidden="true">×</span>
          </CloseTrigger>
        </Root>
      )}
    </ArkToaster>
  )
}
