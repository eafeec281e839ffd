/**
 * The device id of docs/spec.md section 3: random, created once per tab session and kept in
 * session storage (`deviceId`), sent as X-Device-Id. Its own module, without the storage
 * helpers: the shell's early requests (src/early/start.ts) create it before the app when one of them carries it, which
 * then reads the same one (src/models/session.ts).
 */
import { deviceIdPattern } from '../../contract/values.ts'

/** Its session-storage key (src/lib/storage.ts `storageKeys.deviceId`). */
export const DEVICE_ID_KEY = 'deviceId'

/** The device id kept in `store`, created there on first use. */
export function storedDeviceId(store: Pick<Storage, 'getItem' | 'setItem'>): string {
  let id = store.getItem(DEVICE_ID_KEY)
  if (!id || !deviceIdPattern.test(id)) {
    const bytes = new Uint8Array(16)
    globalThis.crypto.getRandomValues(bytes)
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
    store.setItem(DEVICE_ID_KEY, id)
  }
  return id
}
