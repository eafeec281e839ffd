// The waiting room model: joins once with the kept token, polls as told, keeps its place through a dropped
// connection, and tells a screen reader a new place at most once a minute (a new state at once).
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { QueueStatus } from '../../contract/schemas.ts'
import { ApiError } from '../api/api-error.ts'
import type { CallFn } from '../api/index.ts'
import { memoryStorage } from '../lib/storage.ts'
import { QUEUE_TOKEN_KEY } from './queue-gate.ts'
import { createWaitingRoom } from './waiting-room.ts'

const rush = { tripDate: '2026-03-20', originCode: 'DHK', destinationCode: 'CTG' }
const TOKEN = 'a'.repeat(43)

function status(over: Partial<QueueStatus>): QueueStatus {
  return {
    state: 'waiting',
    opensAt: null,
    place: 10,
    ahead: 9,
    waiting: 10,
    seatsLeft: 40,
    estimateSeconds: 100,
    admitPerMinute: 6,
    admittedUntil: null,
    pollSeconds: 5,
    token: TOKEN,
    ...over,
  }
}

/** A room on a fake server answering `answers` in turn (an Error: a failed call), a clock and timers run by hand. */
function setup(answers: (QueueStatus | Error)[]) {
  const bodies: Record<string, unknown>[] = []
  const timers: { fn: () => void; ms: number }[] = []
  let now = 0
  const call = (async (_name: string, opts: { body: Record<string, unknown> }) => {
    bodies.push(opts.body)
    const a = answers.shift()
    if (!a) throw new Error('no more answers')
    if (a instanceof Error) throw a
    return a
  }) as unknown as CallFn
  const storage = memoryStorage()
  const room = createWaitingRoom(rush, {
    call,
    storage,
    now: () => now,
    later: (fn, ms) => {
      timers.push({ fn, ms })
      return () => undefined
    },
  })
  const tick = async (ms: number) => {
    now += ms
    const t = timers.shift()
    assert.ok(t, 'a next ask is scheduled')
    t!.fn()
    await new Promise((r) => setTimeout(r, 0))
  }
  return { room, bodies, timers, storage, tick }
}

test('joins once with the kept token, keeps the token it is answered, then polls as told', async () => {
  const { room, bodies, timers, storage, tick } = setup([status({ state: 'preQueue', place: null, pollSeconds: 3 }), status({})])
  storage.setItem(QUEUE_TOKEN_KEY, TOKEN)
  const stop = room.start()
  await new Promise((r) => setTimeout(r, 0))
  assert.equal(bodies[0], { ...rush, token: TOKEN, join: true })
  assert.is(timers[0]!.ms, 3000)
  await tick(3000)
  assert.equal(bodies[1], { ...rush, token: TOKEN }, 'a poll does not join again')
  assert.is(room.status.value?.place, 10)
  assert.is(storage.getItem(QUEUE_TOKEN_KEY), TOKEN)
  stop()
})

test('a dropped connection keeps the place and asks again; a new place is said at most once a minute', async () => {
  const offline = new ApiError('NO_INTERNET_CONNECTION', 'offline', 0)
  const { room, tick } = setup([
    status({ place: 10 }),
    offline,
    status({ place: 9 }),
    status({ place: 8 }),
    status({ state: 'admitted', place: null, ahead: null }),
  ])
  room.start()
  await new Promise((r) => setTimeout(r, 0))
  assert.equal(room.announcement.value?.values, { place: 10, ahead: 9, waiting: 10 })
  await tick(5000)
  assert.is(room.connected.value, false)
  assert.is(room.status.value?.place, 10, 'the place is still shown')
  await tick(2000)
  assert.is(room.connected.value, true)
  assert.is(room.status.value?.place, 9)
  assert.is(room.announcement.value?.values.place, 10, 'not said again within a minute')
  await tick(60_000)
  assert.is(room.announcement.value?.values.place, 8, 'said after a minute')
  await tick(5000)
  assert.is(room.announcement.value?.id, 'queue.say.admitted', 'a new state is said at once')
  assert.is(room.mayChooseSeats.value, true)
})

test.run()
