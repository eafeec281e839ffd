/**
 * The login and account model tests' stand-in server and setup (login and account .test.ts): a passenger, their
 * session and the server's answers, on a fake clock, with nobody signed in at the start, and a fresh login flow
 * and account for each test (disposed after it).
 */
import { errorCatalogue, type ErrorCode } from '../../contract/errors.ts'
import { ApiError } from '../api/api-error.ts'
import { fakeApi, type FakeCall, type FakeRoutes } from '../api/index.ts'
import { fakeClock, type FakeClock } from '../lib/clock.ts'
import { type KeyValue, useMemoryStorages } from '../lib/storage.ts'
import { type Account, AccountModel } from './account.ts'
import { type Login, LoginModel } from './login.ts'
import { type Session, SessionModel } from './session.ts'

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

export const fail = (code: ErrorCode) => () => {
  throw new ApiError(code, errorCatalogue[code].reason, errorCatalogue[code].status)
}

export const NOW = Date.parse('2026-11-22T10:00:00+06:00')

/** One test's world: the stand-in server's routes and the requests it got, the tab's session storage, the clock, and the models. */
export interface AccountTest {
  handlers: FakeRoutes
  calls: FakeCall[]
  ss: KeyValue
  clock: FakeClock
  session: Session
  login: Login & Disposable
  account: Account & Disposable
}

/** Each test's start: fresh storage, server and clock, a session nobody is signed in to, a new login flow and account. */
export function startAccountTest(): AccountTest {
  const { ss } = useMemoryStorages()
  const session = new SessionModel()
  session.loadSession()
  const clock = fakeClock(NOW)
  const handlers: FakeRoutes = {}
  const calls = fakeApi(handlers)
  return { handlers, calls, ss, clock, session, login: new LoginModel(session), account: new AccountModel(session) }
}

/** Disposes the test's models, once the saved tickets its sign-ins removed are removed (not in the next test's storage). */
export function endAccountTest(t: AccountTest): Promise<void> {
  t.login[Symbol.dispose]()
  t.account[Symbol.dispose]()
  return t.session.savedTicketsDropped()
}

/** Signs the passenger in through the login flow, then forgets the requests that took. */
export async function signedIn({ handlers, calls, login }: AccountTest): Promise<void> {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: true })
  handlers.login = () => theSession
  await login.submitMobile('01812345678')
  await login.login('Secret@1', false)
  calls.length = 0
}
