export { VisuallyHidden, LiveRegion, type LiveRegionProps } from './visually-hidden.tsx'
