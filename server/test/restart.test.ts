/**
 * Crash safety on PGlite: a real server process under a load of bookings and
 * payments is killed with SIGKILL, restarted on the same data folder, and every
 * booking and payment it had acknowledged is still there, with a balance that
 * matches its ledger.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { DEMO_PASSENGER } from '../seed/passengers.ts'
import { dhakaDate } from '../lib/time.ts'
import { call, gatewayDecide, startServer, type ServerProcess } from '../../harness/spawn-server.ts'

interface Ack {
  id: number
  paid: boolean
  pnr: string | null
  total: number
  method: 'CARD' | 'BALANCE' | null
}

test('kill -9 mid-load: every acknowledged booking and payment survives the restart', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'restart-test-'))
  let server: ServerProcess | null = await startServer({ DATA_DIR: dir })
  try {
    const base = server.url
    const login = await call(base, 'POST', '/api/checkPassenger', { mobile: DEMO_PASSENGER.mobile, password: DEMO_PASSENGER.password })
    assert.is(login.status, 200, JSON.stringify(login.body))
    const token: string = login.body.data.token
    const me: number = login.body.data.passenger.id
    const top = await call(base, 'POST', '/api/account/topUp', { amount: 100_000 }, { token })
    assert.match((await gatewayDecide(base, top.body.data.redirectUrl, 'approve'))!, /result=success/)

    const date = dhakaDate(new Date(Date.now() + 2 * 86_400_000))
    const trips: { tripId: number; originCode: string; destinationCode: string }[] = []
    for (const [o, d] of [
      ['DHK', 'CTG'],
      ['DHK', 'SYL'],
      ['CTG', 'DHK'],
      ['DHK', 'KHL'],
    ]) {
      const r = await call(base, 'POST', '/api/reservation/tripSearch', { originCode: o, destinationCode: d, tripDate: date })
      trips.push(...r.body.data.slice(0, 2))
    }
    assert.ok(trips.length >= 6)

    const acks = new Map<number, Ack>()
    let stop = false
    const worker = async (w: number) => {
      const trip = trips[w]!
      const st = await call(base, 'POST', '/api/busStationsByOriginDestinationAndTripDate', {
        originCode: trip.originCode,
        destinationCode: trip.destinationCode,
        tripDate: date,
      })
      const boardingId = st.body.data.boarding[0].id
      const droppingId = st.body.data.dropping[0].id
      for (let round = 0; !stop && round < 40; round++) {
        const d = await call(
          base,
          'POST',
          '/api/reservation/tripDetails',
          {
            tripId: trip.tripId,
            originCode: trip.originCode,
            destinationCode: trip.destinationCode,
            originBusStationId: null,
            destinationBusStationId: null,
          },
          { token },
        )
        const seat = d.body.data.seatLayout.seats.find((s: any) => s.status === 0 && !s.lockedByOther && !s.lockedByMe && s.name !== 'OPEN')
        if (!seat) return
        const full = await call(base, 'POST', '/api/reservation/tripSearch', {
          originCode: trip.originCode,
          destinationCode: trip.destinationCode,
          tripDate: date,
        })
        const coach = full.body.data.find((x: any) => x.tripId === trip.tripId)
        const l = await call(
          base,
          'POST',
          '/api/reservation/seatLock',
          {
            tripId: trip.tripId,
            tripDate: date,
            coachCode: coach.coachCode,
            originCode: trip.originCode,
            destinationCode: trip.destinationCode,
            seatNames: [seat.name],
            locked: true,
          },
          { token },
        )
        if (!l.body.data) continue
        const b = await call(
          base,
          'POST',
          '/api/reservation/booking',
          {
            tripId: trip.tripId,
            seatNames: [seat.name],
            boardingStationId: boardingId,
            droppingStationId: droppingId,
            passengerName: 'Crash Test',
            passengerMobile: DEMO_PASSENGER.mobile,
          },
          { token },
        )
        if (b.status !== 200) continue
        const id: number = b.body.data.id
        acks.set(id, { id, paid: false, pnr: null, total: b.body.data.fare.total, method: null })
        if ((round + w) % 2 === 0) {
          const p = await call(base, 'POST', '/api/reservation/payFromBalance', { reservationId: id }, { token })
          if (p.status === 200) acks.set(id, { id, paid: true, pnr: p.body.data.pnr, total: p.body.data.fare.total, method: 'BALANCE' })
        } else {
          const p = await call(base, 'POST', '/api/reservation/payment', { reservationId: id }, { token })
          const loc = await gatewayDecide(base, p.body.data.redirectUrl, 'approve')
          if (loc?.includes('/reservation/success')) {
            const s = await call(base, 'POST', '/api/reservation/success', { paymentId: p.body.data.paymentId }, { token })
            if (s.status === 200 && s.body.data.reservation.status === 1)
              acks.set(id, { id, paid: true, pnr: s.body.data.reservation.pnr, total: s.body.data.amount, method: 'CARD' })
          }
        }
      }
    }
    const load = Promise.allSettled(trips.map((_, w) => worker(w)))
    // Let the load run until enough has been acknowledged, then pull the plug mid-flight.
    const deadline = Date.now() + 20_000
    while ([...acks.values()].filter((a) => a.paid).length < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    await server.kill('SIGKILL')
    stop = true
    await load
    const acked = [...acks.values()]
    assert.ok(acked.filter((a) => a.paid).length >= 4, `only ${acked.filter((a) => a.paid).length} payments acknowledged before the kill`)
    console.log(`restart: ${acked.length} bookings and ${acked.filter((a) => a.paid).length} payments acknowledged before SIGKILL`)

    server = await startServer({ DATA_DIR: dir })
    const base2 = server.url
    for (const a of acked) {
      const r = await call(base2, 'GET', `/api/reservation/details/${a.id}`, undefined, { token })
      assert.is(r.status, 200, `booking ${a.id} lost`)
      if (a.paid) {
        assert.is(r.body.data.status, 1, `payment of ${a.id} lost`)
        assert.is(r.body.data.pnr, a.pnr)
        assert.is(r.body.data.paymentMethod, a.method)
      } else {
        assert.ok([1, 2].includes(r.body.data.status), `booking ${a.id} has status ${r.body.data.status}`)
      }
    }
    // The balance agrees with what was sold from it (the top-up and opening balance minus balance sales).
    const mine = await call(base2, 'GET', '/api/reservations', undefined, { token })
    const spent = (mine.body.data as any[]).filter((r) => r.status === 1 && r.paymentMethod === 'BALANCE').reduce((s, r) => s + r.fare.total, 0)
    const profile = await call(base2, 'GET', `/api/profile/${me}`, undefined, { token })
    assert.is(profile.body.data.balance, DEMO_PASSENGER.openingBalance + 100_000 - spent)
  } finally {
    await server?.kill('SIGKILL')
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test.run()
