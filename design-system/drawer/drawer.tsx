import type { ReactNode } from 'react'
import { Dialog as Ark } from '@ark-ui/react/dialog'
import { Portal } from '@ark-ui/react/portal'
import { drawer } from '../../styled-system/recipes'
import { createSlotContext } from '../lib/slot-context.tsx'

const slots = drawer()
const { bindSlot } = createSlotContext(slots)

/** Drawer root: Ark dialog machine (focus trap, Escape, outside click closes). */
export function Root(props: Ark.RootProps) {
  return <Ark.Root {...props} />
}

/** Renders the drawer parts into document.body. */
export function Overlay({ children }: { children: ReactNode }) {
  return <Portal>{children}</Portal>
}

export const Trigger = Ark.Trigger
export const Backdrop = bindSlot(Ark.Backdrop, 'backdrop')
export const Positioner = bindSlot(Ark.Positioner, 'positioner')
export const Content = bindSlot(Ark.Content, 'content')
export const Title = bindSlot(Ark.Title, 'title')
export const CloseTrigger = bindSlot(Ark.CloseTrigger, 'closeTrigger')
export const Header = bindSlot('div', 'header')
export const Body = bindSlot('div', 'body')
