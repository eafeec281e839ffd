export * as Drawer from './drawer.tsx'
