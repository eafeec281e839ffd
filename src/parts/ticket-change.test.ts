import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { iso, NOW, sold } from '../stores/ticket-fixture.ts'
import { ticketChange } from './ticket-change.ts'

test('a sold ticket, and one the passenger cancelled, tell no operator change', () => {
  assert.is(ticketChange(sold), null)
  assert.is(ticketChange({ ...sold, status: 5, cancelReason: 'TICKET_CANCELED', canceledAt: iso(NOW), refundAmount: 900 }), null)
})

test('the trip cancelled by the operator: its words and the whole refund; an unpaid booking without a refund', () => {
  const canceled = { ...sold, status: 5, cancelReason: 'TRIP_CANCELED' as const, operatorReason: 'Hartal', refundAmount: 1440 }
  assert.equal(ticketChange(canceled), { kind: 'tripCanceled', reason: 'Hartal', reasonBn: null, refund: 1440, toCard: false })
  assert.equal(ticketChange({ ...canceled, refundAmount: null }), {
    kind: 'tripCanceled',
    reason: 'Hartal',
    reasonBn: null,
    refund: null,
    toCard: false,
  })
  assert.equal(
    ticketChange({ ...canceled, operatorReasonBn: 'হরতাল' }),
    { kind: 'tripCanceled', reason: 'Hartal', reasonBn: 'হরতাল', refund: 1440, toCard: false },
    'the Bengali words beside the English ones',
  )
  const toCard = { to: 'CARD' as const, amount: 1440, status: 'PROCESSING' as const, refundedAt: null }
  assert.equal(
    ticketChange({ ...canceled, refund: toCard }),
    { kind: 'tripCanceled', reason: 'Hartal', reasonBn: null, refund: 1440, toCard: true },
    'paid by card: back to the card',
  )
})

test('moved (10): the new coach, seats and departure, and where it came from; refused (14): the refund', () => {
  const movedFrom = { coachCode: 'OLD-1', departureTime: iso(NOW) }
  const moved = {
    ...sold,
    status: 10,
    coach: { ...sold.coach, code: '104-DHK-CTG' },
    seats: [sold.seats[0]!, { ...sold.seats[0]!, name: 'B2' }],
    movedFrom,
  }
  assert.equal(ticketChange(moved), {
    kind: 'moved',
    coach: '104-DHK-CTG',
    seats: `${sold.seats[0]!.name}, B2`,
    departure: sold.departureTime,
    from: movedFrom,
  })
  // a copy saved on the device before the field existed
  assert.is((ticketChange({ ...moved, movedFrom: undefined as never }) as { from: unknown }).from, null)
  assert.equal(ticketChange({ ...moved, status: 14, refundAmount: 1440, canceledAt: iso(NOW) }), { kind: 'moveRefused', refund: 1440 })
})

test.run()
