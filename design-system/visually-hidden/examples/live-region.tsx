import { LiveRegion, VisuallyHidden } from '../index.ts'

/** Screen-reader-only text and a polite announcement. */
export default function LiveRegionExample() {
  return (
    <div>
      <p>
        3 seats selected<VisuallyHidden> out of a maximum of 5</VisuallyHidden>
      </p>
      <LiveRegion message="Seat A1 selected" />
    </div>
  )
}
