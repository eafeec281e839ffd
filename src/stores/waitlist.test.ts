import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { WaitlistEntry } from '../../contract/schemas.ts'
import { fakeApi } from '../api/index.ts'
import { createWaitlist } from './waitlist.ts'

const waiting: WaitlistEntry = { status: 'WAITING', seats: 2, place: 3, offeredSeats: [], offerExpiresAt: null }

test('start reads the entry; join sends the trip and the seats and shows the place', async () => {
  let entry: WaitlistEntry = null
  const calls = fakeApi({ waitlist: () => entry, joinWaitlist: () => (entry = waiting) })
  const list = createWaitlist(7)
  const stop = list.start(60_000)
  await list.refresh()
  assert.is(list.entry.value, null)
  assert.ok(await list.join(2))
  stop()
  assert.equal(list.entry.value, waiting)
  assert.equal(calls[0]!.opts.params, { tripId: 7 })
  assert.equal(calls.at(-1)!.opts.body, { tripId: 7, seats: 2 })
})

test('an offer is read on the next poll; leave takes the passenger off the list', async () => {
  const offer: WaitlistEntry = { status: 'OFFERED', seats: 1, place: null, offeredSeats: ['A1'], offerExpiresAt: '2026-11-22T10:00:00+06:00' }
  fakeApi({ waitlist: () => offer, leaveWaitlist: () => true })
  const list = createWaitlist(7)
  await list.refresh()
  assert.ok(list.offered.value)
  assert.ok(await list.leave())
  assert.is(list.entry.value, null)
  assert.is(list.offered.value, false)
})

test('a refused join keeps the entry and says why', async () => {
  fakeApi({
    joinWaitlist: () => {
      throw Object.assign(new Error('Seats are still free on this trip'), { code: 'TRIP_NOT_SOLD_OUT', reason: 'Seats are still free on this trip' })
    },
  })
  const list = createWaitlist(7)
  assert.is(await list.join(1), false)
  assert.is(list.error.value?.code, 'TRIP_NOT_SOLD_OUT')
  assert.is(list.busy.value, false)
  assert.is(list.entry.value, undefined)
})

test.run()
