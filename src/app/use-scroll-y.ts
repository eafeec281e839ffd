import { useEffect, useState } from 'react'

/** True while the page is scrolled more than `threshold` px. */
export function useScrolledPast(threshold: number): boolean {
  const [past, setPast] = useState(false)
  useEffect(() => {
    const update = () => setPast(window.scrollY > threshold)
    // read in the next frame, whose layout is done then anyway: read here, scrollY would lay the
    // whole page out in the task that runs the first render's effects (docs/performance.md)
    const first = requestAnimationFrame(update)
    window.addEventListener('scroll', update, { passive: true })
    return () => {
      cancelAnimationFrame(first)
      window.removeEventListener('scroll', update)
    }
  }, [threshold])
  return past
}
