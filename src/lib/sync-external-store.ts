/** What the use-sync-external-store shim exports, from React itself (build.mjs resolves the shim here). */
export { useSyncExternalStore } from 'react'
