import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryStorage, useStorages, type KeyValue } from '../lib/storage.ts'
import * as s from './session.ts'

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

interface Ctx {
  ss: KeyValue
  ls: KeyValue
}
const test = suite<Ctx>('session')
test.before.each((ctx) => {
  ctx.ss = memoryStorage()
  ctx.ls = memoryStorage()
  useStorages(ctx.ss, ctx.ls)
  s.loadSession()
})

test('login stores token, passenger and company under the SPEC keys', ({ ss, ls }) => {
  s.signIn(demo)
  assert.is(s.token.value, 'tok-1')
  assert.ok(s.isSignedIn.value)
  assert.is(ss.getItem('token'), 'tok-1')
  assert.is(JSON.parse(ss.getItem('passenger')!).mobile, '01712345678')
  assert.is(JSON.parse(ss.getItem('company')!).name, 'Company')
  assert.is(ls.getItem('token'), null, 'session only without stay signed in')
})

test('stay signed in keeps the session in local storage and a new tab loads it', ({ ls }) => {
  s.signIn(demo, true)
  assert.is(ls.getItem('token'), 'tok-1')
  const newTab = memoryStorage()
  useStorages(newTab, ls)
  s.loadSession()
  assert.is(s.token.value, 'tok-1')
  assert.is(s.passenger.value?.fullName, 'Demo')
  assert.is(newTab.getItem('token'), 'tok-1')
})

test('logout clears both storages', ({ ss, ls }) => {
  s.signIn(demo, true)
  s.signOut()
  assert.is(s.token.value, null)
  assert.is(s.passenger.value, null)
  assert.is(ss.getItem('token'), null)
  assert.is(ls.getItem('token'), null)
})

test('the 401 reset clears the session, flags it invalid and remembers the path', ({ ss }) => {
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

test('redirect memory ignores login and error pages and foreign URLs', ({ ss }) => {
  s.rememberRedirect('/login')
  assert.is(s.takeRedirect(), '/')
  s.rememberRedirect('/reservation')
  assert.is(s.takeRedirect(), '/reservation')
  ss.setItem('redirectUrl', '//evil.example')
  assert.is(s.takeRedirect(), '/')
})

test('the device id is created once and kept', ({ ss }) => {
  const a = s.deviceId()
  assert.match(a, /^[0-9a-f]{32}$/)
  assert.is(s.deviceId(), a)
  assert.is(ss.getItem('deviceId'), a)
})

test.run()
