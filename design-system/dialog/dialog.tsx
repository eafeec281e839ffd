import type { ReactNode } from 'react'
import { Dialog as Ark } from '@ark-ui/react/dialog'
import { Portal } from '@ark-ui/react/portal'
import { dialog, type DialogVariantProps } from '../../styled-system/recipes'
import { createSlotContext } from '../lib/slot-context.tsx'

const { Provider, bindSlot } = createSlotContext(dialog())

/** Props for Dialog.Root: Ark's root props plus the tone variant. */
export type RootProps = Ark.RootProps & DialogVariantProps

/** Dialog root: owns open state; closes on Escape and on backdrop click by default. */
export function Root({ tone, ...props }: RootProps) {
  return (
    <Provider value={dialog({ tone })}>
      <Ark.Root {...props} />
    </Provider>
  )
}

/** Renders the overlay parts into document.body. */
export function Overlay({ children }: { children: ReactNode }) {
  return <Portal>{children}</Portal>
}

export const Backdrop = bindSlot(Ark.Backdrop, 'backdrop')
export const Positioner = bindSlot(Ark.Positioner, 'positioner')
export const Content = bindSlot(Ark.Content, 'content')
export const Title = bindSlot(Ark.Title, 'title')
export const Description = bindSlot(Ark.Description, 'description')
export const CloseTrigger = bindSlot(Ark.CloseTrigger, 'closeTrigger')
export const Trigger = Ark.Trigger
export const Actions = bindSlot('div', 'actions')
