/**
 * The passenger session, one for the app (src/app-models.ts): token, passenger and company under their SPEC
 * session-storage keys (also in local storage when `Stay signed in` was chosen), the invalid-session flag, the
 * redirect memory and the device id. Actions are the only writers; uvu makes a fresh instance in Node.
 */
import { computed, createModel, effect, type ModelConstructor, type ReadonlySignal, signal, untracked } from '@preact/signals-core'
import type { Company, Passenger, Session as SignedIn } from '../../contract/schemas.ts'
import { storedDeviceId } from '../lib/device-id.ts'
import { localStore, readJson, sessionStore, storageKeys as k } from '../lib/storage.ts'

const sessionKeys = [k.token, k.passenger, k.company] as const

/** The session's state (read-only) and actions. */
export interface Session {
  token: ReadonlySignal<string | null>
  passenger: ReadonlySignal<Passenger | null>
  company: ReadonlySignal<Company | null>
  /** Set by a 401 outside the login page; the login page shows INVALID_SESSION. */
  invalidSession: ReadonlySignal<boolean>
  isSignedIn: ReadonlySignal<boolean>
  /**
   * Loads a stored session (session storage first, then a stay-signed-in one). Saved tickets of no session any more
   * are removed when `sweepWhen` lets them (the app's start: once the page has shown), or before they are first read.
   */
  loadSession(sweepWhen?: (sweep: () => void) => void): void
  /** Settles once the saved tickets to remove are removed, the start's sweep done now if it was waiting (src/stores/saved-tickets-later.ts reads after it). */
  savedTicketsSwept(): Promise<void>
  /** Settles once the saved tickets to remove (at start, sign-in, LOGOUT, a 401) are removed. */
  savedTicketsDropped(): Promise<void>
  /** Stores a new session after login, sign-up verification or password reset. */
  signIn(s: SignedIn, staySignedIn?: boolean): void
  /** Replaces the stored passenger record (profile edit, balance change). */
  updatePassenger(p: Passenger): void
  /** LOGOUT: forgets the session everywhere, and every ticket this device saved for the account, kept ones too. */
  signOut(): void
  /**
   * The 401 reset of docs/spec.md section 4: clears token, passenger and company and the session's saved tickets
   * (but those kept by choice), flags an invalid session and remembers `path` for the return after login.
   */
  resetInvalidSession(path: string): void
  /** Acknowledges the invalid-session message (shown once on the login page). */
  clearInvalidSession(): void
  /** Remembers where to return after login (restricted routes, 401). */
  rememberRedirect(path: string): void
  /** Takes (and forgets) the remembered path, or `/` when none. */
  takeRedirect(): string
  /** A random device id created once per tab session (sent as X-Device-Id). */
  deviceId(): string
}

/** The ticket shelf's removals (src/lib/ticket-shelf.ts). */
type Shelf = typeof import('../lib/ticket-shelf.ts')

function copy(key: string, from: ReturnType<typeof sessionStore>, to: ReturnType<typeof sessionStore>): void {
  const v = from.getItem(key)
  if (v !== null) to.setItem(key, v)
}

/** Creates the app's session (empty until `loadSession`). */
export const SessionModel: ModelConstructor<Session> = createModel((): Session => {
  const token = signal<string | null>(null)
  const passenger = signal<Passenger | null>(null)
  const company = signal<Company | null>(null)
  const invalidSession = signal(false)
  // the removals of saved tickets, one after another
  const dropping = signal(Promise.resolve())
  // lets the start's sweep of saved tickets (loadSession) go now, if it is waiting
  const sweepAtStart = signal<(() => void) | null>(null)

  const savedTicketsSwept = () => {
    sweepAtStart.value?.()
    return dropping.value
  }

  /**
   * Removes saved tickets with src/lib/ticket-shelf.ts (fetched when first needed: not in
   * any page's first render); every saved ticket when it cannot be fetched.
   */
  const dropTickets = (drop: (shelf: Shelf) => void, due?: Promise<void>) => {
    // a later removal (sign-in, LOGOUT, a 401) does not wait for the page: the start's goes first, now
    if (!due) sweepAtStart.value?.()
    dropping.value = Promise.all([dropping.value, due]).then(() =>
      import('../lib/ticket-shelf.ts').then(drop, () => {
        for (const store of [sessionStore(), localStore()]) store.removeItem(k.savedTickets)
      }),
    )
  }

  const clear = () => {
    for (const key of sessionKeys) {
      sessionStore().removeItem(key)
      localStore().removeItem(key)
    }
    token.value = null
    passenger.value = null
    company.value = null
  }

  /** The saved tickets of the session's passenger (saved-tickets.ts keeps them under the passenger id): all, or those not kept by choice. */
  const dropTicketsOfSession = (evenKept: boolean) => {
    const id = passenger.value?.id
    if (id !== undefined) dropTickets((m) => m.dropAtEnd(id, evenKept))
  }

  const rememberRedirect = (path: string) => {
    if (path.startsWith('/login') || path.startsWith('/error')) return
    sessionStore().setItem(k.redirectUrl, path)
  }

  return {
    token,
    passenger,
    company,
    invalidSession,
    isSignedIn: computed(() => token.value !== null),
    savedTicketsSwept,
    savedTicketsDropped: () => dropping.value,
    rememberRedirect,

    loadSession(sweepWhen = (sweep) => sweep()) {
      const ss = sessionStore()
      const ls = localStore()
      const from = ss.getItem(k.token) ? ss : ls.getItem(k.token) ? ls : null
      token.value = from?.getItem(k.token) ?? null
      passenger.value = from ? readJson<Passenger>(from, k.passenger) : null
      company.value = from ? readJson<Company>(from, k.company) : null
      invalidSession.value = ss.getItem(k.invalidSession) === 'true'
      // a stay-signed-in session is copied into this tab's session storage
      if (from === ls) for (const key of sessionKeys) copy(key, ls, ss)
      // saved tickets in local storage of no session any more go when the start lets them, or before the saved
      // tickets are first read (one waiting sweep covers a second start: it reads the storage when it runs)
      if (ls.getItem(k.savedTickets) !== null && !sweepAtStart.value) {
        const due = new Promise<void>((go) => {
          const release = () => {
            if (sweepAtStart.peek() === release) sweepAtStart.value = null
            go()
          }
          sweepAtStart.value = release
          sweepWhen(release)
        })
        dropTickets((m) => m.dropAtStart(), due)
      }
    },

    signIn(s, staySignedIn = false) {
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
      token.value = s.token
      passenger.value = s.passenger
      company.value = s.company
      invalidSession.value = false
      dropTickets((m) => m.dropAtSignIn(s.passenger.id, staySignedIn))
    },

    updatePassenger(p) {
      const json = JSON.stringify(p)
      sessionStore().setItem(k.passenger, json)
      if (localStore().getItem(k.token)) localStore().setItem(k.passenger, json)
      passenger.value = p
    },

    signOut() {
      dropTicketsOfSession(true)
      clear()
    },

    resetInvalidSession(path) {
      // the session has ended: its saved tickets go with it, but those the passenger chose to keep
      dropTicketsOfSession(false)
      clear()
      sessionStore().setItem(k.invalidSession, 'true')
      invalidSession.value = true
      rememberRedirect(path)
    },

    clearInvalidSession() {
      sessionStore().removeItem(k.invalidSession)
      invalidSession.value = false
    },

    takeRedirect() {
      const ss = sessionStore()
      const path = ss.getItem(k.redirectUrl)
      ss.removeItem(k.redirectUrl)
      return path?.startsWith('/') && !path.startsWith('//') ? path : '/'
    },

    deviceId: () => storedDeviceId(sessionStore()),
  }
})

/**
 * Runs `forget` whenever the signed-in passenger of `session` leaves (LOGOUT, a 401, another account signing in): a
 * model made in a factory drops what it holds in memory (the ticket or booking on screen, with its PIN), so the next
 * person in the same tab cannot bring it back. The effect is the caller's: a model's is disposed with it.
 */
export function whenPassengerLeaves(session: Pick<Session, 'passenger'>, forget: () => void): () => void {
  let last = session.passenger.peek()?.id ?? null
  return effect(() => {
    const id = session.passenger.value?.id ?? null
    if (last !== null && id !== last) untracked(forget)
    last = id
  })
}
