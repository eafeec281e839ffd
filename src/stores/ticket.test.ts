import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { errorCatalogue, type ErrorCode } from '../../contract/errors.ts'
import type { Reservation } from '../../contract/schemas.ts'
import { ApiError } from '../api/api-error.ts'
import { fakeApi, type FakeCall, type FakeRoutes } from '../api/index.ts'
import { fakeClock, type FakeClock } from '../lib/clock.ts'
import { memoryStorage, useStorages } from '../lib/storage.ts'
import * as session from './session.ts'
import * as t from './ticket.ts'

const NOW = Date.parse('2026-11-22T10:00:00+06:00')
let clock: FakeClock
const iso = (ms: number) => new Date(ms).toISOString()
const station = (id: number) => ({ id, name: `S${id}`, cityCode: 'DHK', address: '', phone: '', time: null })

const sold: Reservation = {
  id: 41,
  status: 1,
  pnr: 'ABCDEFGHJK',
  pin: '1234',
  tripId: 7,
  tripDate: '2026-11-25',
  coach: { code: 'NX-101', type: 'AC_BUSINESS', name: 'Business' },
  origin: { code: 'DHK', name: 'Dhaka', nameBn: 'ঢাকা' },
  destination: { code: 'CTG', name: 'Chattogram', nameBn: 'চট্টগ্রাম' },
  departureTime: '2026-11-25T22:00:00+06:00',
  arrivalTime: '2026-11-26T04:00:00+06:00',
  boardingStation: station(1),
  droppingStation: station(9),
  seats: [{ name: 'A1', seatType: 'Standard', fare: 1000 }],
  passengerName: 'Rahim',
  passengerMobile: '01712345678',
  passengerEmail: null,
  fare: { subtotal: 1000, discount: 0, total: 1000, couponCode: null },
  expirationTime: null,
  maxExpirationTime: null,
  paymentMethod: 'CARD',
  paidAt: iso(NOW),
  canceledAt: null,
  refundAmount: null,
  createdAt: iso(NOW),
}

let handlers: FakeRoutes
let calls: FakeCall[]
let balance: number

const fail = (code: ErrorCode) => {
  throw new ApiError(code, errorCatalogue[code].reason, errorCatalogue[code].status)
}
const passenger = { id: 3, mobile: '01712345678', fullName: 'Rahim', email: 'r@example.com', city: 'Dhaka', balance: 0, createdAt: iso(NOW) }

test.before.each(() => {
  clock = fakeClock(NOW)
  balance = 0
  useStorages(memoryStorage(), memoryStorage())
  session.loadSession()
  handlers = {
    reservationByPnr: ({ params }) => (params!.pnr === 'ABCDEFGHJK' && params!.pin === '1234' ? sold : fail('WRONG_PNR_PIN')),
    reservationById: ({ params }) => (params!.id === 41 ? sold : fail('RESERVATION_NOT_ACCESSIBLE')),
    resendReservationEmail: () => true,
    cancelInitialize: () => ({
      reservationId: 41,
      refundAmount: 900,
      cancellationCharge: 100,
      chargePercent: 10,
      policy: 'Cancellation charge: 10% ...',
      otpSentTo: '017******78',
      resendAfterSeconds: 180,
    }),
    cancel: ({ params }) => {
      if (params!.otp !== '654321') fail('INVALID_OTP_PROVIDED')
      balance += 900
      return { ...sold, status: 5, refundAmount: 900, canceledAt: iso(clock.now) }
    },
    profile: () => ({ ...passenger, balance }),
  }
  calls = fakeApi(handlers)
  t.resetTicket()
})

test('find by PNR and PIN (typed in lower case with spaces)', async () => {
  const r = await t.findByPnr(' abcde fghjk ', '1234')
  assert.is(r?.id, 41)
  assert.equal(calls[0]!.opts.params, { pnr: 'ABCDEFGHJK', pin: '1234' })
  assert.is(t.ticket.value?.pnr, 'ABCDEFGHJK')
  assert.ok(t.isSold.value)
  assert.is(t.announcement.value?.id, 'ticket.announceFound')
})

test('WRONG_PNR_PIN and RESERVATION_NOT_ACCESSIBLE are kept as errors', async () => {
  assert.is(await t.findByPnr('ABCDEFGHJK', '9999'), undefined)
  assert.equal(t.error.value, { scope: 'find', code: 'WRONG_PNR_PIN', reason: 'Wrong PNR and/or PIN' })
  assert.is(t.ticket.value, null)
  assert.is(await t.openById(99), undefined)
  assert.is(t.error.value?.code, 'RESERVATION_NOT_ACCESSIBLE')
  assert.is((await t.openById(41))?.id, 41)
  assert.is(t.error.value, null)
})

test('resend the ticket e-mail', async () => {
  await t.findByPnr('ABCDEFGHJK', '1234')
  assert.ok(await t.resendEmail())
  assert.equal(calls.at(-1)!.opts.params, { pnr: 'ABCDEFGHJK', pin: '1234' })
  assert.ok(t.emailSent.value)
  assert.is(t.announcement.value?.id, 'ticket.announceEmailSent')
})

test('cancel: initialize shows the refund, the code cancels, the balance is refreshed', async () => {
  session.signIn({ token: 't', expiresAt: iso(NOW + 86_400_000), passenger, company: { name: 'C', phone: '1', email: 'c@example.com' } })
  await t.openById(41)
  const q = await t.startCancel()
  assert.is(q?.refundAmount, 900)
  assert.is(t.cancelStep.value, 'otp')
  assert.is(t.resendSecondsLeft.value, 180)
  assert.is(await t.resendCancelCode(), false)
  assert.is(await t.confirmCancel('12'), undefined)
  assert.is(t.error.value?.code, 'INVALID_OTP_PROVIDED')
  assert.is(calls.filter((c) => c.name === 'cancel').length, 0)
  assert.is(await t.confirmCancel('111111'), undefined)
  assert.is(t.error.value?.code, 'INVALID_OTP_PROVIDED')
  assert.is(t.cancelStep.value, 'otp')
  const r = await t.confirmCancel('654321')
  assert.is(r?.status, 5)
  assert.is(t.cancelStep.value, 'done')
  assert.is(t.ticket.value?.refundAmount, 900)
  assert.is(session.passenger.value?.balance, 900)
  assert.is(t.announcement.value?.id, 'ticket.announceCanceled')
  assert.is(t.isSold.value, false)
})

test('cancel refusals are explained; the resend wait counts down', async () => {
  await t.findByPnr('ABCDEFGHJK', '1234')
  handlers.cancelInitialize = () => fail('RESERVATION_CANCEL_TIME_EXPIRED')
  assert.is(await t.startCancel(), undefined)
  assert.equal(t.error.value?.scope, 'cancel')
  assert.is(t.error.value?.code, 'RESERVATION_CANCEL_TIME_EXPIRED')
  assert.is(t.cancelStep.value, 'idle')
  handlers.cancelInitialize = () => ({
    reservationId: 41,
    refundAmount: 500,
    cancellationCharge: 500,
    chargePercent: 50,
    policy: 'p',
    otpSentTo: 'x',
    resendAfterSeconds: 30,
  })
  await t.startCancel()
  clock.now += 31_000
  t.tick()
  assert.is(t.resendSecondsLeft.value, 0)
  assert.ok(await t.resendCancelCode())
  assert.is(calls.filter((c) => c.name === 'cancelInitialize').length, 3)
  t.abandonCancel()
  assert.is(t.cancelStep.value, 'idle')
})

test.run()
