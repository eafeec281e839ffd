import { useEffect, useRef, useState } from 'react'

/** Anything `createModel` made: disposed with its `Symbol.dispose`. */
type Disposable = { [Symbol.dispose](): void }

/**
 * A model made once for the component's life (`make` runs on the first render) and disposed when it
 * goes: the page's visit. As @preact/signals-react's useModel, kept in the page's code rather than the
 * entry's, which every route loads.
 */
export function useVisitModel<T extends Disposable>(make: () => T): T {
  const [model] = useState(make)
  const leaving = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => {
    // StrictMode (React's development build, npm run dev) unmounts and mounts again at once: the model stays
    clearTimeout(leaving.current)
    return () => {
      leaving.current = setTimeout(() => model[Symbol.dispose]())
    }
  }, [model])
  return model
}
