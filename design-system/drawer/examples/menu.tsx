import { Drawer } from '../index.ts'

/** The collapsed site menu, open. */
export default function DrawerMenu() {
  return (
    <Drawer.Root defaultOpen>
      <Drawer.Trigger>Open menu</Drawer.Trigger>
      <Drawer.Overlay>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>Menu</Drawer.Title>
              <Drawer.CloseTrigger aria-label="Close menu">×</Drawer.CloseTrigger>
            </Drawer.Header>
            <Drawer.Body>
              <a href="/">Home</a>
              <a href="/faq">FAQ</a>
            </Drawer.Body>
          </Drawer.Content>
        </Drawer.Positioner>
      </Drawer.Overlay>
    </Drawer.Root>
  )
}
