import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { TicketCheck } from '../../contract/schemas.ts'
import { fakeApi } from '../api/index.ts'
import * as ck from './checker.ts'

const day = (revoked: TicketCheck['revoked'], fetchedAt: string): TicketCheck => ({ keys: ['k'], trips: [], revoked, fetchedAt })

/** Stands in for the server: the first ticketCheck answers when the answer function is called, every later one with `later()`. */
function firstAnswersLast(later: () => TicketCheck | Promise<TicketCheck>): (d: TicketCheck) => void {
  let answerFirst: (d: TicketCheck) => void = () => undefined
  let n = 0
  fakeApi({ ticketCheck: () => (++n === 1 ? new Promise<TicketCheck>((resolve) => (answerFirst = resolve)) : later()) })
  return (d) => answerFirst(d)
}

test('an older fetch answering after a newer one does not bring its list back (a refresh slow on a poor network)', async () => {
  const before = day([], '2026-12-06T10:00:00+06:00')
  const after = day([{ tripId: 7, pnrHash: 'ab', before: null }], '2026-12-06T10:01:00+06:00')
  // the first (sent before the cancellation) answers last
  const answerOld = firstAnswersLast(() => after)
  const slow = ck.fetchDay('2026-12-06')
  assert.ok(await ck.fetchDay('2026-12-06'))
  assert.equal(ck.data.value, after)
  answerOld(before)
  await slow
  assert.equal(ck.data.value, after, 'the newer list stays')
  assert.is(ck.fetching.value, false)
})

test('an answer is kept when a fetch sent after it fails (the network gone again before it answered)', async () => {
  const fresh = day([{ tripId: 7, pnrHash: 'cd', before: null }], '2026-12-06T10:05:00+06:00')
  // the first is answered after the second has failed
  const answer = firstAnswersLast(() => Promise.reject(new TypeError('Failed to fetch')))
  const first = ck.fetchDay('2026-12-06')
  assert.is(await ck.fetchDay('2026-12-06'), false)
  assert.is(ck.fetchFailed.value, true)
  answer(fresh)
  assert.ok(await first)
  assert.equal(ck.data.value, fresh, 'the list fetched after the cancellation is the one checked against')
})

test.run()
