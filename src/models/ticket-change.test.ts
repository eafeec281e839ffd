// The change of a ticket to another trip (ticket-change.ts) over the seat page model: the day's
// other trips, the quote once as many seats are chosen as the ticket has, and the change.
import * as assert from 'uvu/assert'
import type { ChangeQuote, TripSummary } from '../../contract/schemas.ts'
import { sold } from '../stores/ticket-fixture.ts'
import { seatSuite, until } from './seat-page-fixture.ts'
import { TicketChangeModel } from './ticket-change.ts'

const test = seatSuite('ticket change')
const ticket = {
  ...sold,
  seats: [
    { name: 'A1', seatType: 'Standard' as const, fare: 1000 },
    { name: 'A2', seatType: 'Standard' as const, fare: 1000 },
  ],
}
const trip = (tripId: number) => ({ tripId, originCode: 'DHK', destinationCode: 'CTG', tripDate: '2026-11-24' }) as TripSummary
const quote = (seatNames: string[], toPay: number): ChangeQuote => ({
  reservationId: ticket.id,
  fromTripId: ticket.tripId,
  tripId: 1,
  seats: seatNames.map((name) => ({ name, seatType: 'Standard', fare: 1100 })),
  fare: 2000,
  newFare: 2000 + toPay,
  charge: 0,
  toPay,
  refund: 0,
  refundTo: 'BALANCE',
  paidWith: null,
})

test("the day's trips leave out the ticket's own", async ({ t }) => {
  t.routes.tripSearch = () => [trip(ticket.tripId), trip(1), trip(2)]
  const change = new TicketChangeModel(ticket, t.m)
  await change.searchTrips('2026-11-24')
  assert.equal(
    change.trips.value?.map((x) => x.tripId),
    [1, 2],
  )
  change[Symbol.dispose]()
})

test('the quote is asked once as many seats are chosen as the ticket has, and dropped when one is given back', async ({ t }) => {
  t.routes.changeQuote = ({ body }) => quote(body!.seatNames, 200)
  const change = new TicketChangeModel(ticket, t.m)
  await change.chooseTrip(trip(1))
  t.m.toggleSeat('A1')
  await t.m.locksSettled()
  assert.is(t.log.filter((c) => c.name === 'changeQuote').length, 0, 'not for one seat of two')
  t.m.toggleSeat('B1')
  await t.m.locksSettled()
  await until(() => change.quote.value !== null, 'the quote')
  assert.equal(t.log.filter((c) => c.name === 'changeQuote').at(-1)!.opts.body, { reservationId: ticket.id, tripId: 1, seatNames: ['A1', 'B1'] })
  t.m.toggleSeat('B1')
  await t.m.locksSettled()
  assert.is(change.quote.value, null)
  change[Symbol.dispose]()
})

test('confirm sends the amounts quoted and how the difference is paid; the seats are kept on leave', async ({ t }) => {
  t.routes.changeQuote = ({ body }) => quote(body!.seatNames, 200)
  t.routes.changeTicket = () => ({ reservation: null, payment: { paymentId: 'pay_1', redirectUrl: '/sandbox/gateway/pay_1', resultToken: 'tok' } })
  const change = new TicketChangeModel(ticket, t.m)
  await change.chooseTrip(trip(1))
  t.m.toggleSeat('A1')
  t.m.toggleSeat('B1')
  await t.m.locksSettled()
  await until(() => change.quote.value !== null, 'the quote')
  const out = await change.confirm('bkash')
  assert.is(out?.payment?.paymentId, 'pay_1')
  assert.equal(t.log.filter((c) => c.name === 'changeTicket').at(-1)!.opts.body, {
    reservationId: ticket.id,
    tripId: 1,
    seatNames: ['A1', 'B1'],
    fromTripId: ticket.tripId,
    toPay: 200,
    refund: 0,
    payWith: 'bkash',
  })
  assert.ok(t.m.keepOnLeave.value)
  change[Symbol.dispose]()
})

test.run()
