import { DEVICE_ID_KEY } from './device-id.ts'

/**
 * Browser storage keys of docs/spec.md section 3 and a safe accessor: session storage by
 * default, local storage only where the passenger chose `Stay signed in`, and an
 * in-memory fallback where neither exists (Node tests, private modes that throw).
 */
export const storageKeys = {
  token: 'token',
  passenger: 'passenger',
  language: 'language',
  company: 'company',
  invalidSession: 'invalidSession',
  redirectUrl: 'redirectUrl',
  deviceId: DEVICE_ID_KEY,
  deviceType: 'deviceType',
  uuid: 'uuid',
  announcement: 'announcement',
  /** Tickets kept for opening offline (session storage, or local storage when kept beyond the session; src/lib/ticket-shelf.ts). */
  savedTickets: 'savedTickets',
  /** The result token of the card payment this tab opened last (session storage; src/stores/payment-tokens.ts). */
  paymentResultToken: 'paymentResultToken',
  /** The checker page's public keys, trips, revocation list and chosen trip, for checks offline (local storage; src/stores/checker.ts). */
  checker: 'checker',
} as const

/** A minimal Storage: what the stores use. */
export interface KeyValue {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/** An in-memory KeyValue (tests, or when browser storage is unavailable). */
export function memoryStorage(): KeyValue {
  const m = new Map<string, string>()
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
  }
}

function pick(name: 'sessionStorage' | 'localStorage'): KeyValue {
  try {
    const s = (globalThis as Record<string, unknown>)[name] as KeyValue | undefined
    if (s) {
      s.setItem('__probe', '1')
      s.removeItem('__probe')
      return s
    }
  } catch {
    // storage disabled: fall through to memory
  }
  return memoryStorage()
}

let session: KeyValue | null = null
let local: KeyValue | null = null

/** Session storage (SPEC: the storage type). */
export function sessionStore(): KeyValue {
  return (session ??= pick('sessionStorage'))
}

/** Local storage, used only for a `Stay signed in` session. */
export function localStore(): KeyValue {
  return (local ??= pick('localStorage'))
}

/** Replaces both stores (tests). */
export function useStorages(s: KeyValue, l: KeyValue): void {
  session = s
  local = l
}

/** Replaces both stores with empty in-memory ones (tests) and answers them. */
export function useMemoryStorages(): { ss: KeyValue; ls: KeyValue } {
  const ss = memoryStorage()
  const ls = memoryStorage()
  useStorages(ss, ls)
  return { ss, ls }
}

/** Reads a JSON value, or null when absent or unreadable. */
export function readJson<T>(store: KeyValue, key: string): T | null {
  const raw = store.getItem(key)
  if (raw == null) return null
  try {
    return JSON.parse(raw) as T
  } catch {
    return null
  }
}
