import { useEffect } from 'react'
import { Toaster, toaster } from '../index.ts'

/** A toast that stays until closed and offers one action. */
export default function ToastWithAction() {
  useEffect(() => {
    toaster.create({
      type: 'info',
      title: 'A new version of Nodi Express is ready.',
      duration: Infinity,
      action: { label: 'Reload to update', onClick: () => undefined },
    })
  }, [])
  return <Toaster label="Notifications" closeLabel="Dismiss notification" />
}
