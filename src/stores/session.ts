/**
 * The passenger session: token, passenger and company under their SPEC
 * session-storage keys (also in local storage when `Stay signed in` was chosen),
 * the invalid-session flag, the redirect memory and the device id.
 */
import { batch, computed, effect, signal, untracked } from '@preact/signals-react'
import type { Company, Passenger, Session } from '../../contract/schemas.ts'
import { storedDeviceId } from '../lib/device-id.ts'
import { localStore, readJson, sessionStore, storageKeys as k } from '../lib/storage.ts'

const tokenState = signal<string | null>(null)
const passengerState = signal<Passenger | null>(null)
const companyState = signal<Company | null>(null)
const invalidSessionState = signal(false)

export const token = computed(() => tokenState.value)
export const passenger = computed(() => passengerState.value)
export const company = computed(() => companyState.value)
/** Set by a 401 outside the login page; the login page shows INVALID_SESSION. */
export const invalidSession = computed(() => invalidSessionState.value)
export const isSignedIn = computed(() => tokenState.value !== null)

const sessionKeys = [k.token, k.passenger, k.company] as const

/**
 * Loads a stored session (session storage first, then a stay-signed-in one). Saved tickets of no session any more
 * are removed when `sweepWhen` lets them (the app's start: once the page has shown), or before they are first read.
 */
export function loadSession(sweepWhen: (sweep: () => void) => void = (sweep) => sweep()): void {
  const ss = sessionStore()
  const ls = localStore()
  const from = ss.getItem(k.token) ? ss : ls.getItem(k.token) ? ls : null
  batch(() => {
    tokenState.value = from?.getItem(k.token) ?? null
    passengerState.value = from ? readJson<Passenger>(from, k.passenger) : null
    companyState.value = from ? readJson<Company>(from, k.company) : null
    invalidSessionState.value = ss.getItem(k.invalidSession) === 'true'
  })
  // a stay-signed-in session is copied into this tab's session storage
  if (from === ls) for (const key of sessionKeys) copy(key, ls, ss)
  // saved tickets in local storage of no session any more go when the start lets them, or before the saved
  // tickets are first read (one waiting sweep covers a second start: it reads the storage when it runs)
  if (ls.getItem(k.savedTickets) !== null && !sweepAtStart) {
    const due = new Promise<void>((go) => {
      const release = () => {
        if (sweepAtStart === release) sweepAtStart = null
        go()
      }
      sweepAtStart = release
      sweepWhen(release)
    })
    dropTickets((m) => m.dropAtStart(), due)
  }
}

/** Lets the start's sweep of saved tickets (loadSession) go now, if it is waiting. */
let sweepAtStart: (() => void) | null = null

/** Settles once the saved tickets to remove are removed, the start's sweep done now if it was waiting (src/stores/saved-tickets-later.ts reads after it). */
export function savedTicketsSwept(): Promise<void> {
  sweepAtStart?.()
  return dropping
}

/**
 * Removes saved tickets with src/lib/ticket-shelf.ts (fetched when first needed: not in
 * any page's first render); every saved ticket when it cannot be fetched.
 */
function dropTickets(drop: (shelf: typeof import('../lib/ticket-shelf.ts')) => void, due?: Promise<void>): void {
  // a later removal (sign-in, LOGOUT, a 401) does not wait for the page: the start's goes first, now
  if (!due) sweepAtStart?.()
  dropping = Promise.all([dropping, due]).then(() =>
    import('../lib/ticket-shelf.ts').then(drop, () => {
      for (const store of [sessionStore(), localStore()]) store.removeItem(k.savedTickets)
    }),
  )
}
let dropping = Promise.resolve()

/** Settles once the saved tickets to remove (at start, sign-in, LOGOUT, a 401) are removed. */
export const savedTicketsDropped = (): Promise<void> => dropping

function copy(key: string, from: ReturnType<typeof sessionStore>, to: ReturnType<typeof sessionStore>): void {
  const v = from.getItem(key)
  if (v !== null) to.setItem(key, v)
}

/** Stores a new session after login, sign-up verification or password reset. */
export function signIn(s: Session, staySignedIn = false): void {
  const ss = sessionStore()
  const ls = localStore()
  ss.setItem(k.token, s.token)
  ss.setItem(k.passenger, JSON.stringify(s.passenger))
  ss.setItem(k.company, JSON.stringify(s.company))
  ss.removeItem(k.invalidSession)
  for (const key of sessionKeys) {
    if (staySignedIn) copy(key, ss, ls)
    else ls.removeItem(key)
  }
  batch(() => {
    tokenState.value = s.token
    passengerState.value = s.passenger
    companyState.value = s.company
    invalidSessionState.value = false
  })
  dropTickets((m) => m.dropAtSignIn(s.passenger.id, staySignedIn))
}

/** Replaces the stored passenger record (profile edit, balance change). */
export function updatePassenger(p: Passenger): void {
  const json = JSON.stringify(p)
  sessionStore().setItem(k.passenger, json)
  if (localStore().getItem(k.token)) localStore().setItem(k.passenger, json)
  passengerState.value = p
}

function clear(): void {
  for (const key of sessionKeys) {
    sessionStore().removeItem(key)
    localStore().removeItem(key)
  }
  batch(() => {
    tokenState.value = null
    passengerState.value = null
    companyState.value = null
  })
}

/** The saved tickets of the session's passenger (saved-tickets.ts keeps them under the passenger id): all, or those not kept by choice. */
function dropTicketsOfSession(evenKept: boolean): void {
  const id = passengerState.value?.id
  if (id === undefined) return
  dropTickets((m) => m.dropAtEnd(id, evenKept))
}

/** LOGOUT: forgets the session everywhere, and every ticket this device saved for the account, kept ones too. */
export function signOut(): void {
  dropTicketsOfSession(true)
  clear()
}

/**
 * The 401 reset of docs/spec.md section 4: clears token, passenger and company and the
 * session's saved tickets (but those kept by choice), flags an invalid session and
 * remembers `path` for the return after login.
 */
export function resetInvalidSession(path: string): void {
  // the session has ended: its saved tickets go with it, but those the passenger chose to keep
  dropTicketsOfSession(false)
  clear()
  sessionStore().setItem(k.invalidSession, 'true')
  invalidSessionState.value = true
  rememberRedirect(path)
}

/** Acknowledges the invalid-session message (shown once on the login page). */
export function clearInvalidSession(): void {
  sessionStore().removeItem(k.invalidSession)
  invalidSessionState.value = false
}

/**
 * Runs `forget` whenever the signed-in passenger leaves (LOGOUT, a 401, another account
 * signing in): the stores drop what they hold in memory of theirs (the ticket or booking on
 * screen, with its PIN), so the next person in the same tab cannot bring it back.
 */
export function whenPassengerLeaves(forget: () => void): () => void {
  let last = passengerState.peek()?.id ?? null
  return effect(() => {
    const id = passengerState.value?.id ?? null
    if (last !== null && id !== last) untracked(forget)
    last = id
  })
}

/** Remembers where to return after login (restricted routes, 401). */
export function rememberRedirect(path: string): void {
  if (path.startsWith('/login') || path.startsWith('/error')) return
  sessionStore().setItem(k.redirectUrl, path)
}

/** Takes (and forgets) the remembered path, or `/` when none. */
export function takeRedirect(): string {
  const ss = sessionStore()
  const path = ss.getItem(k.redirectUrl)
  ss.removeItem(k.redirectUrl)
  return path?.startsWith('/') && !path.startsWith('//') ? path : '/'
}

/** A random device id created once per tab session (sent as X-Device-Id). */
export function deviceId(): string {
  return storedDeviceId(sessionStore())
}
