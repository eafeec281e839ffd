/**
 * The account store tests' fake server and setup (account and account-data .test.ts): a passenger, their
 * session and the server's answers, on a fake clock, with nobody signed in at the start. Its `let`s are read
 * by the tests as live bindings and written only here.
 */
import { errorCatalogue, type ErrorCode } from '../../contract/errors.ts'
import { ApiError } from '../api/api-error.ts'
import { fakeApi, type FakeCall, type FakeRoutes } from '../api/index.ts'
import { fakeClock, type FakeClock } from '../lib/clock.ts'
import { memoryStorage, useStorages, type KeyValue } from '../lib/storage.ts'
import * as account from './account.ts'
import * as session from './session.ts'

export const passenger = {
  id: 7,
  mobile: '01812345678',
  fullName: 'Rahim',
  email: 'rahim@example.com',
  city: 'Dhaka',
  balance: 100,
  createdAt: '2026-11-01T00:00:00+06:00',
}
export const company = { name: 'Company', phone: '16460', email: 'support@example.com' }
export const theSession = { token: 'tok-7', expiresAt: '2026-11-22T20:00:00+06:00', passenger, company }
export const sent = { mobile: '01812345678', resendAfterSeconds: 180, expiresInSeconds: 300 }
export const registered = { ...sent, registrationToken: 'reg-token-1' }

export let handlers: FakeRoutes
export let calls: FakeCall[]

export const fail = (code: ErrorCode) => () => {
  throw new ApiError(code, errorCatalogue[code].reason, errorCatalogue[code].status)
}

export const NOW = Date.parse('2026-11-22T10:00:00+06:00')
export let ss: KeyValue
export let clock: FakeClock

/** Each test's start: fresh storage, server and clock, nobody signed in. */
export async function startAccountTest(): Promise<void> {
  ss = memoryStorage()
  useStorages(ss, memoryStorage())
  session.loadSession()
  handlers = {}
  clock = fakeClock(NOW)
  await account.logout()
  // the saved tickets the logout removes are removed before the test keeps any (else they go with them)
  await session.savedTicketsDropped()
  calls = fakeApi(handlers)
}

/** Signs the passenger in, then forgets the requests that took. */
export async function signedIn() {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: true })
  handlers.login = () => theSession
  await account.submitMobile('01812345678')
  await account.login('Secret@1', false)
  calls.length = 0
}
