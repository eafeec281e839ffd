import { createContext, useContext, type ComponentProps, type JSX, type JSXElementConstructor } from 'react'
import { cx } from '../../styled-system/css'

// biome-ignore lint/suspicious/noExplicitAny: any component, whatever its props (each part keeps its own props type)
type AnyComponent = keyof JSX.IntrinsicElements | JSXElementConstructor<any>

/**
 * Binds Ark parts to the slots of a Panda slot recipe: the root provides the
 * slot class names (computed once from the variants) and each part reads its own.
 */
export function createSlotContext<S extends string>(defaults: Record<S, string>) {
  const Ctx = createContext<Record<S, string>>(defaults)

  /** Wraps a part so it gets its slot class, merged with any className passed. */
  function bindSlot<C extends AnyComponent>(Comp: C, slot: S) {
    function Part(props: ComponentProps<C>) {
      const classes = useContext(Ctx)
      // biome-ignore lint/suspicious/noExplicitAny: the part's props are checked through ComponentProps<C> above
      const Tag = Comp as JSXElementConstructor<any>
      return <Tag {...props} className={cx(classes[slot], (props as { className?: string }).className)} />
    }
    Part.displayName = `Slot(${slot})`
    return Part
  }

  return { Provider: Ctx.Provider, bindSlot, useSlots: () => useContext(Ctx) }
}
