import * as assert from 'uvu/assert'
import { memoryStorage, useStorages } from '../lib/storage.ts'
import { modelSuite } from './model-suite.ts'
import { SessionModel, whenPassengerLeaves } from './session.ts'

const demo = {
  token: 'tok-1',
  expiresAt: '2026-11-22T20:00:00+06:00',
  passenger: {
    id: 1,
    mobile: '01712345678',
    fullName: 'Demo',
    email: 'demo@example.com',
    city: 'Dhaka',
    balance: 5000,
    createdAt: '2026-11-01T00:00:00+06:00',
  },
  company: { name: 'Company', phone: '16460', email: 'support@example.com' },
}

const test = modelSuite('session', () => {
  const s = new SessionModel()
  s.loadSession()
  return s
})

test('login stores token, passenger and company under the SPEC keys', ({ ss, ls, m: s }) => {
  s.signIn(demo)
  assert.is(s.token.value, 'tok-1')
  assert.ok(s.isSignedIn.value)
  assert.is(ss.getItem('token'), 'tok-1')
  assert.is(JSON.parse(ss.getItem('passenger')!).mobile, '01712345678')
  assert.is(JSON.parse(ss.getItem('company')!).name, 'Company')
  assert.is(ls.getItem('token'), null, 'session only without stay signed in')
})

test('stay signed in keeps the session in local storage and a new tab loads it', ({ ls, m: s }) => {
  s.signIn(demo, true)
  assert.is(ls.getItem('token'), 'tok-1')
  const newTab = memoryStorage()
  useStorages(newTab, ls)
  const next = new SessionModel()
  next.loadSession()
  assert.is(next.token.value, 'tok-1')
  assert.is(next.passenger.value?.fullName, 'Demo')
  assert.is(newTab.getItem('token'), 'tok-1')
})

test('logout clears both storages', ({ ss, ls, m: s }) => {
  s.signIn(demo, true)
  s.signOut()
  assert.is(s.token.value, null)
  assert.is(s.passenger.value, null)
  assert.is(ss.getItem('token'), null)
  assert.is(ls.getItem('token'), null)
})

test('the 401 reset clears the session, flags it invalid and remembers the path', ({ ss, m: s }) => {
  s.signIn(demo)
  s.resetInvalidSession('/profile?tab=account')
  assert.is(s.token.value, null)
  assert.is(s.company.value, null)
  assert.ok(s.invalidSession.value)
  assert.is(ss.getItem('invalidSession'), 'true')
  assert.is(s.takeRedirect(), '/profile?tab=account')
  assert.is(s.takeRedirect(), '/', 'taken once')
  s.signIn(demo)
  assert.not.ok(s.invalidSession.value, 'a new login clears the flag')
})

test('redirect memory ignores login and error pages and foreign URLs', ({ ss, m: s }) => {
  s.rememberRedirect('/login')
  assert.is(s.takeRedirect(), '/')
  s.rememberRedirect('/reservation')
  assert.is(s.takeRedirect(), '/reservation')
  ss.setItem('redirectUrl', '//evil.example')
  assert.is(s.takeRedirect(), '/')
})

test('the device id is created once and kept', ({ ss, m: s }) => {
  const a = s.deviceId()
  assert.match(a, /^[0-9a-f]{32}$/)
  assert.is(s.deviceId(), a)
  assert.is(ss.getItem('deviceId'), a)
})

test('what a model holds is forgotten when the passenger leaves (LOGOUT, a 401, another account), not at sign-in', ({ m: s }) => {
  let forgotten = 0
  const stop = whenPassengerLeaves(s, () => forgotten++)
  s.signIn(demo)
  s.updatePassenger({ ...demo.passenger, balance: 10 })
  assert.is(forgotten, 0)
  s.signOut()
  assert.is(forgotten, 1)
  s.signIn(demo)
  s.signIn({ ...demo, passenger: { ...demo.passenger, id: 2 } })
  assert.is(forgotten, 2)
  s.resetInvalidSession('/profile')
  assert.is(forgotten, 3)
  stop()
  s.signIn(demo)
  s.signOut()
  assert.is(forgotten, 3, 'not after its disposer ran')
})

test.run()
