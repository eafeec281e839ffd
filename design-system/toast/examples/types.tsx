import { useEffect } from 'react'
import { Toaster, toaster } from '../index.ts'

/** One toast of each type, as the app's Toaster renders them. */
export default function ToastTypes() {
  useEffect(() => {
    toaster.create({ type: 'success', title: 'Internet connection is available now.' })
    toaster.create({ type: 'error', title: 'No internet connection.' })
    toaster.create({ type: 'info', title: 'Eid schedule: extra coaches from 10 June', duration: Infinity })
  }, [])
  return <Toaster label="Notifications" closeLabel="Dismiss notification" />
}
