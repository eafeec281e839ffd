// The booking model on a round trip: the return leg booked against the outbound, both paid at once, and a lost return paid for never.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Reservation } from '../../contract/schemas.ts'
import { type BookingTest, booking, fail, iso, input, NOW, startBookingTest } from './booking-fixture.ts'

const test = suite<BookingTest>('booking round trip')
test.before.each(async (ctx) => {
  Object.assign(ctx, await startBookingTest())
})
test.after.each(({ b }) => b[Symbol.dispose]())

const city = (code: string) => ({ code, name: code, nameBn: code })
/** The outbound booking with its return leg (`returnLive`: its hold not ended). */
const withReturn = (returnLive = true): Reservation =>
  booking({
    roundTrip: {
      leg: 'outbound',
      other: {
        id: 99,
        pnr: null,
        status: 2,
        tripId: 8,
        tripDate: '2026-11-25',
        departureTime: '2026-11-25T08:00:00+06:00',
        origin: city('CTG'),
        destination: city('DHK'),
        seats: ['B1'],
        total: 900,
        expirationTime: iso(NOW + (returnLive ? 10 : -1) * 60_000),
      },
    },
  })

test('the return leg is booked against its outbound booking', async ({ b, s }) => {
  await b.book({ ...input, outboundReservationId: 41 })
  assert.is((s.named('booking')[0]!.opts.body as { outboundReservationId?: number }).outboundReservationId, 41)
  await b.book(input)
  assert.not.ok(
    'outboundReservationId' in (s.calls.filter((c) => c.name === 'booking').at(-1)!.opts.body as object),
    'a single journey names no outbound',
  )
})

test('a round trip pays both totals at once; a lost return: the outbound alone only once the passenger chooses it', async ({ b, s }) => {
  s.handlers.booking = () => withReturn()
  await b.book(input)
  assert.is(b.amountDue.value, 1600 + 900)
  s.handlers.payFromBalance = ({ body }) => {
    if (!(body as { outboundOnly?: boolean }).outboundOnly) fail('RETURN_SEATS_LOST')
    return { ...withReturn(false), status: 1, pnr: 'ABCDEFGHJK', pin: '1234', paymentMethod: 'BALANCE', expirationTime: null }
  }
  assert.is(await b.payFromBalance(), undefined)
  assert.is(b.error.value?.code, 'RETURN_SEATS_LOST')
  assert.is(b.phase.value, 'booked')
  b.payOutboundOnly()
  assert.is(b.error.value, null)
  assert.is(b.amountDue.value, 1600)
  assert.is((await b.payFromBalance())?.status, 1)
  const id = withReturn().id
  assert.equal(
    s.named('payFromBalance').map((c) => c.opts.body),
    [{ reservationId: id }, { reservationId: id, outboundOnly: true }],
  )
})

test('a return leg whose hold has ended is not in the amount due', async ({ b, s }) => {
  s.handlers.booking = () => withReturn(false)
  await b.book(input)
  assert.is(b.amountDue.value, 1600)
})

test.run()
