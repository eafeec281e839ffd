// The account, signed in: logout, the profile, the password, the balance and top-ups, my tickets.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { PaymentResult, Reservation } from '../../contract/schemas.ts'
import { configureApi } from '../api/index.ts'
import { savedTicketsOf } from '../stores/saved-tickets.ts'
import { defaultRange, isUpcoming, logout } from './account.ts'
import { type AccountTest, endAccountTest, fail, NOW, passenger, signedIn, startAccountTest, theSession } from './account-fixture.ts'

const test = suite<AccountTest>('account')
test.before.each((ctx) => {
  Object.assign(ctx, startAccountTest())
})
test.after.each((ctx) => endAccountTest(ctx))

test('logout forgets the session and the account data, and tells the server', async (t) => {
  const { account, handlers, calls } = t
  await signedIn(t)
  handlers.logout = () => true
  // as the app wires it at start
  configureApi({ token: () => t.session.token.value })
  await logout(t.session)
  assert.is(calls[0]!.token, 'tok-7', 'the server call still carries the token')
  assert.is(t.session.token.value, null)
  assert.is(account.profile.value, null)
  assert.is(account.balance.value, null)
  assert.is(calls[0]!.name, 'logout')
})

test('logout still signs out when the server call fails', async (t) => {
  const { handlers, ss } = t
  await signedIn(t)
  handlers.logout = fail('INVALID_SESSION')
  await logout(t.session)
  assert.is(t.session.token.value, null)
  assert.is(ss.getItem('token'), null)
})

test('profile: load, edit (mobile untouched) and the stored passenger follows', async (t) => {
  const { account, handlers, calls, ss } = t
  await signedIn(t)
  handlers.profile = ({ params }) => ({ ...passenger, id: Number(params!.id), balance: 250 })
  await account.loadProfile()
  assert.is(calls[0]!.opts.params!.id, 7)
  assert.is(account.balance.value, 250)
  handlers.updateProfile = ({ body }) => ({ ...passenger, ...(body as object) })
  assert.ok(await account.updateProfile({ fullName: ' Rahim Uddin ', email: 'ru@example.com', city: 'Sylhet' }))
  assert.equal(calls[1]!.opts.body, { fullName: 'Rahim Uddin', email: 'ru@example.com', city: 'Sylhet' })
  assert.is(account.profile.value?.city, 'Sylhet')
  assert.is(JSON.parse(ss.getItem('passenger')!).fullName, 'Rahim Uddin')
})

test('change password: success, and a wrong current password keeps its own error', async (t) => {
  const { account, handlers, calls } = t
  await signedIn(t)
  handlers.changePassword = () => true
  assert.ok(await account.changePassword('Secret@1', 'NewPass@2'))
  assert.equal(calls[0]!.opts.body, { currentPassword: 'Secret@1', newPassword: 'NewPass@2' })
  handlers.changePassword = fail('BAD_CREDENTIALS')
  assert.not.ok(await account.changePassword('nope', 'NewPass@2'))
  assert.is(account.errors.value.password?.code, 'BAD_CREDENTIALS')
  assert.is(account.errors.value.profile, undefined, 'other forms keep their own state')
})

test('account: the default range runs from the first of the month to today in Dhaka', async () => {
  // 23:30 on Nov 30 in UTC is already Dec 1 in Dhaka
  assert.equal(defaultRange(Date.parse('2026-11-30T23:30:00Z')), { from: '2026-12-01', to: '2026-12-01' })
  assert.equal(defaultRange(NOW), { from: '2026-11-01', to: '2026-11-22' })
})

test('account: loads balance and transactions for a range, newest first', async (t) => {
  const { account, handlers, calls } = t
  await signedIn(t)
  const tx = (id: number, createdAt: string) => ({
    id,
    createdAt,
    amount: 10,
    balanceAfter: 10,
    kind: 'TOP_UP' as const,
    reason: null,
    description: '',
    reservationId: null,
    pnr: null,
  })
  handlers.account = () => ({ balance: 900, transactions: [tx(1, '2026-11-02T10:00:00+06:00'), tx(2, '2026-11-05T10:00:00+06:00')] })
  await account.loadAccount({ from: '2026-11-01', to: '2026-11-22' })
  assert.equal(calls[0]!.opts.query, { from: '2026-11-01', to: '2026-11-22' })
  assert.is(calls[0]!.opts.params!.id, 7)
  assert.is(account.balance.value, 900)
  assert.equal(
    account.transactions.value!.map((t) => t.id),
    [2, 1],
  )
  assert.equal(account.range.value, { from: '2026-11-01', to: '2026-11-22' })
})

/** The server's answer to a top-up's payment confirmation. */
const topUpAnswer = (paymentId: string, status: PaymentResult['status'], amount: number, balance: number | null): PaymentResult => ({
  paymentId,
  full: true,
  status,
  purpose: 'TOP_UP',
  amount,
  reservation: null,
  balance,
})

test('top-up: start answers the gateway URL; confirm credits once and reloads the account', async (t) => {
  const { account, handlers, calls } = t
  await signedIn(t)
  handlers.topUp = () => ({ paymentId: 'pay-1', redirectUrl: '/sandbox/gateway/pay-1', resultToken: 'tok-1' })
  assert.is(await account.startTopUp(500), '/sandbox/gateway/pay-1')
  assert.equal(calls[0]!.opts.body, { amount: 500 })
  handlers.paymentSuccess = () => topUpAnswer('pay-1', 'APPROVED', 500, 600)
  handlers.account = () => ({ balance: 600, transactions: [] })
  const out = await account.confirmTopUp('pay-1', 'success')
  assert.equal(out, { status: 'APPROVED', amount: 500, balance: 600 })
  assert.is(account.balance.value, 600)
  assert.is(t.session.passenger.value?.balance, 600)
  assert.is(await account.confirmTopUp('pay-1', 'success'), undefined, 'confirmed once')
  assert.is(calls.filter((c) => c.name === 'paymentSuccess').length, 1)
  assert.equal(calls.find((c) => c.name === 'paymentSuccess')!.opts.body, { paymentId: 'pay-1', resultToken: 'tok-1' }, "this tab's result token")
})

test('top-up: a declined payment reports DECLINED and leaves the balance', async (t) => {
  const { account, handlers } = t
  await signedIn(t)
  handlers.paymentFailure = () => topUpAnswer('pay-2', 'DECLINED', 500, null)
  const out = await account.confirmTopUp('pay-2', 'failure')
  assert.equal(out, { status: 'DECLINED', amount: 500 })
  assert.is(account.balance.value, 100)
})

test('top-up: a payment held for review or still being confirmed is reported as such, the balance unchanged', async (t) => {
  const { account, handlers } = t
  await signedIn(t)
  handlers.paymentSuccess = () => topUpAnswer('pay-3', 'REVIEW', 700, 100)
  assert.equal(await account.confirmTopUp('pay-3', 'success'), { status: 'REVIEW', amount: 700 })
  handlers.paymentSuccess = () => topUpAnswer('pay-4', 'PENDING', 800, 100)
  assert.equal(await account.confirmTopUp('pay-4', 'success'), { status: 'PENDING', amount: 800 })
  assert.is(account.balance.value, 100)
})

test('my tickets: upcoming trips first (soonest first), then past ones (latest first)', async (t) => {
  const { account, handlers } = t
  await signedIn(t)
  const r = (id: number, departureTime: string) => ({ id, departureTime }) as Reservation
  handlers.myReservations = () => [
    r(1, '2026-11-10T08:00:00+06:00'),
    r(2, '2026-11-25T08:00:00+06:00'),
    r(3, '2026-11-23T08:00:00+06:00'),
    r(4, '2026-11-15T08:00:00+06:00'),
  ]
  await account.loadReservations()
  assert.equal(
    account.reservations.value!.map((x) => x.id),
    [3, 2, 4, 1],
  )
  assert.ok(isUpcoming(account.reservations.value![0]!, account.listedAt.value))
  assert.not.ok(isUpcoming(account.reservations.value![3]!, account.listedAt.value))
})

test('my tickets: every ticket with a PNR and PIN is kept on the device under the account', async (t) => {
  const { account, handlers } = t
  await signedIn(t)
  const id = t.session.passenger.value!.id
  handlers.myReservations = () => [
    { id: 1, pnr: 'AAAAAAAAAA', pin: '1111', departureTime: '2026-11-25T08:00:00+06:00' } as Reservation,
    { id: 2, pnr: null, pin: null, departureTime: '2026-11-26T08:00:00+06:00' } as Reservation,
  ]
  await account.loadReservations()
  assert.equal(
    savedTicketsOf(id).map((s) => s.reservation.id),
    [1],
  )
})

test("a LOGOUT that only clears the session (header) never shows the previous passenger's data", async (t) => {
  const { account, login, handlers } = t
  await signedIn(t)
  handlers.account = () => ({ balance: 900, transactions: [] })
  await account.loadAccount()
  assert.is(account.balance.value, 900)
  t.session.signOut()
  assert.is(account.transactions.value, null)
  assert.is(account.balance.value, null)
  handlers.login = () => ({ ...theSession, passenger: { ...passenger, id: 8, balance: 5 } })
  await login.submitMobile('01812345678')
  await login.login('Secret@1', false)
  assert.is(account.balance.value, 5)
  assert.is(account.transactions.value, null)
})

test('account actions do nothing for a visitor', async ({ account, calls }) => {
  await account.loadProfile()
  await account.loadAccount()
  await account.loadReservations()
  assert.is(calls.length, 0)
})

test.run()
