/**
 * The device id of docs/spec.md section 3: random, created once per tab session and kept in
 * session storage, sent as X-Device-Id. Its own module: the shell's early requests
 * (src/early/start.ts) create it before the app, which then reads the same one.
 */
import { deviceIdPattern } from '../../contract/values.ts'
import { sessionStore, storageKeys } from './storage.ts'

/** The tab's device id, created on first use. */
export function deviceId(): string {
  const ss = sessionStore()
  let id = ss.getItem(storageKeys.deviceId)
  if (!id || !deviceIdPattern.test(id)) {
    const bytes = new Uint8Array(16)
    globalThis.crypto.getRandomValues(bytes)
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
    ss.setItem(storageKeys.deviceId, id)
  }
  return id
}
