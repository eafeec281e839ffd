/**
 * The profile page's account, one per visit: the profile, the password change, the balance with its
 * transactions, top-ups and the passenger's reservations, each form or list with its own busy flag and error.
 * What it shows is always the signed-in passenger's: after a LOGOUT, a 401 or another sign-in the data of the
 * previous one is never shown. Actions are the only writers; uvu makes a fresh instance in Node against
 * `fakeApi` and `fakeClock`.
 */
import { batch, computed, createModel, type ModelConstructor, type ReadonlySignal, signal } from '@preact/signals-core'
import type { Passenger, Reservation, Transaction } from '../../contract/schemas.ts'
import type { RequestError } from '../api/api-error.ts'
import { call } from '../api/index.ts'
import { now } from '../lib/clock.ts'
import { startOfMonthInDhaka, todayInDhaka } from '../lib/dates.ts'
import { keepResultToken, resultRequest } from '../stores/payment-tokens.ts'
import { keepTicketsLater } from '../stores/saved-tickets-later.ts'
import type { Session } from './session.ts'
import { scopedRequests } from './scoped-requests.ts'

/** Editable profile fields. */
export interface ProfileInput {
  fullName: string
  email: string
  city: string
}

/** Transaction filter, inclusive calendar dates in Asia/Dhaka ('yyyy-LL-dd'). */
export interface DateRange {
  from: string
  to: string
}

/** What a top-up confirmation ended with. */
export type TopUpOutcome = { status: 'APPROVED'; amount: number; balance: number } | { status: 'DECLINED' | 'PENDING' | 'REVIEW'; amount: number }

/** The forms and lists that keep their own busy flag and error. */
export type Scope = 'profile' | 'password' | 'account' | 'topUp' | 'reservations'

/** The default transaction filter: the first of the current month until today (Asia/Dhaka). */
export function defaultRange(at: number = now()): DateRange {
  return { from: startOfMonthInDhaka(at), to: todayInDhaka(at) }
}

/** Trips departing from `at` on, soonest first, then the past ones, latest first. */
export function upcomingFirst(list: readonly Reservation[], at: number): Reservation[] {
  const t = (r: Reservation) => Date.parse(r.departureTime)
  const upcoming = list.filter((r) => t(r) >= at).sort((a, b) => t(a) - t(b))
  const past = list.filter((r) => t(r) < at).sort((a, b) => t(b) - t(a))
  return [...upcoming, ...past]
}

/** Whether a reservation's trip departs at `at` or later. */
export function isUpcoming(r: Reservation, at: number): boolean {
  return Date.parse(r.departureTime) >= at
}

/** LOGOUT: forgets the session at once (and with it what the account model shows), and ends the token on the server (best effort). */
export async function logout(session: Pick<Session, 'token' | 'signOut'>): Promise<void> {
  // the request reads the token before the session is cleared below
  const ended = session.token.value !== null ? call('logout', { ignoreUnauthorized: true }).catch(() => undefined) : null
  session.signOut()
  await ended
}

/** The account's state (read-only) and actions. */
export interface Account {
  /** The signed-in passenger's profile (the session's record until loaded). */
  profile: ReadonlySignal<Passenger | null>
  balance: ReadonlySignal<number | null>
  /** The transactions of `range`, newest first (null until loaded). */
  transactions: ReadonlySignal<Transaction[] | null>
  range: ReadonlySignal<DateRange>
  /** Reservations with upcoming trips first (soonest first), then past ones (latest first); null until loaded. */
  reservations: ReadonlySignal<Reservation[] | null>
  /** When the reservations were loaded: a trip departing from then on is upcoming. */
  listedAt: ReadonlySignal<number>
  /** Which scopes wait for the server. */
  busy: ReadonlySignal<Partial<Record<Scope, boolean>>>
  /** The last server error of each scope (shown with its catalogue message). */
  errors: ReadonlySignal<Partial<Record<Scope, RequestError>>>
  /** Loads the profile of the signed-in passenger. */
  loadProfile(): Promise<void>
  /** Saves full name, e-mail and city; true when saved. */
  updateProfile(input: ProfileInput): Promise<boolean>
  /** Changes the password; true when changed. */
  changePassword(currentPassword: string, newPassword: string): Promise<boolean>
  /** Loads the balance and the transactions of `r` (default: the current filter). */
  loadAccount(r?: DateRange): Promise<void>
  /** Starts a top-up; answers the card gateway's page the browser must open (a path here, or the gateway's address). */
  startTopUp(amount: number): Promise<string | undefined>
  /**
   * Confirms a top-up when the gateway returns to /profile?topUp=<id>&result=…;
   * each payment id is confirmed once per visit, the server credits once.
   */
  confirmTopUp(paymentId: string, result: 'success' | 'failure'): Promise<TopUpOutcome | undefined>
  /** Loads the passenger's reservations (My tickets); each bought ticket is kept on the device to open offline. */
  loadReservations(): Promise<void>
}

/** The session an account shows and updates. */
type AccountSession = Pick<Session, 'passenger' | 'updatePassenger' | 'savedTicketsSwept'>

/** Creates the account of a page visit, the signed-in passenger's of `session`. */
export const AccountModel: ModelConstructor<Account, [AccountSession]> = createModel((session: AccountSession): Account => {
  // a second submit while the first is pending is dropped (a double click)
  const requests = scopedRequests<Scope>(new Set(['password', 'topUp']))
  const { run } = requests
  const profileState = signal<Passenger | null>(null)
  const balanceState = signal<number | null>(null)
  const transactionsState = signal<Transaction[] | null>(null)
  const range = signal<DateRange>(defaultRange())
  const reservationsState = signal<Reservation[] | null>(null)
  const listedAt = signal(now())
  // whose profile, balance, transactions and reservations the signals above hold
  const owner = signal<number | null>(null)
  const confirmedTopUps = new Set<string>()

  // a LOGOUT, a 401 or another sign-in only changes the session: the data of a previous passenger is never shown
  const mine = computed(() => owner.value !== null && owner.value === session.passenger.value?.id)
  const profile = computed(() => (mine.value ? profileState.value : null) ?? session.passenger.value)
  const balance = computed(() => (mine.value ? balanceState.value : null) ?? session.passenger.value?.balance ?? null)
  const transactions = computed(() => (mine.value ? transactionsState.value : null))
  const reservations = computed(() => {
    const list = mine.value ? reservationsState.value : null
    return list ? upcomingFirst(list, listedAt.value) : null
  })

  /** The signed-in passenger's id (and the data now belongs to them, another's dropped), or null. */
  const passengerId = () => {
    const id = session.passenger.value?.id ?? null
    if (id !== null && owner.value !== id) {
      batch(() => {
        owner.value = id
        profileState.value = null
        balanceState.value = null
        transactionsState.value = null
        reservationsState.value = null
        range.value = defaultRange()
      })
    }
    return id
  }

  const loadAccount = async (r: DateRange = range.value) => {
    const id = passengerId()
    if (id === null) return
    range.value = r
    const res = await run('account', () => call('account', { params: { id }, query: { from: r.from, to: r.to } }))
    if (!res) return
    batch(() => {
      balanceState.value = res.balance
      // newest first
      transactionsState.value = [...res.transactions].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
    })
  }

  return {
    profile,
    balance,
    transactions,
    range,
    reservations,
    listedAt,
    busy: requests.busy,
    errors: requests.errors,

    async loadProfile() {
      const id = passengerId()
      if (id === null) return
      const p = await run('profile', () => call('profile', { params: { id } }))
      if (!p) return
      session.updatePassenger(p)
      batch(() => {
        profileState.value = p
        balanceState.value = p.balance
      })
    },

    async updateProfile(input) {
      const body = { fullName: input.fullName.trim(), email: input.email.trim(), city: input.city.trim() }
      const p = await run('profile', () => call('updateProfile', { body }))
      if (!p) return false
      session.updatePassenger(p)
      profileState.value = p
      return true
    },

    async changePassword(currentPassword, newPassword) {
      const ok = await run('password', () => call('changePassword', { body: { currentPassword, newPassword } }))
      return ok === true
    },

    loadAccount,

    async startTopUp(amount) {
      const res = await run('topUp', () => call('topUp', { body: { amount } }))
      if (res) keepResultToken(res.paymentId, res.resultToken)
      return res?.redirectUrl
    },

    async confirmTopUp(paymentId, result) {
      if (confirmedTopUps.has(paymentId)) return undefined
      confirmedTopUps.add(paymentId)
      const res = await run('topUp', () => call(result === 'success' ? 'paymentSuccess' : 'paymentFailure', { body: resultRequest(paymentId) }))
      if (!res) return undefined
      if (res.status === 'APPROVED' && res.balance !== null) {
        balanceState.value = res.balance
        const p = session.passenger.value
        if (p) session.updatePassenger({ ...p, balance: res.balance })
        await loadAccount()
        return { status: 'APPROVED', amount: res.amount, balance: res.balance }
      }
      return { status: res.status === 'APPROVED' ? 'PENDING' : res.status, amount: res.amount }
    },

    async loadReservations() {
      const id = passengerId()
      if (id === null) return
      const list = await run('reservations', () => call('myReservations'))
      if (!list) return
      batch(() => {
        listedAt.value = now()
        reservationsState.value = list
      })
      // every bought ticket opens offline (and a cancelled one's copy says so from now on)
      await keepTicketsLater(session, id, list)
    },
  }
})
