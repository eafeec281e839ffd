/**
 * Moving a sold ticket to another trip of its route (issue 31 item 2), on PGlite through the HTTP
 * API: the quote, the difference paid from the balance or on the gateway's page, or refunded, the
 * operator's change charge, the PNR and PIN kept, the old seats free at once, one SMS and one
 * e-mail, the old QR code revoked; refused after the cancel cut-off, for a trip not on sale or of
 * another route, for a cancelled ticket or taken seats; a payment that arrives too late refunded.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sha256 } from '../lib/tokens.ts'
import { bookingBody, freeSeats, lastCode, lockBody, openFixture, pickTrip, seatOnMap, type Fixture } from '../test/booking-fixture.ts'

const t = suite('change a ticket to another trip')
let f: Fixture
let used = 0
const code = (r: { body: any }) => r.body?.error?.code
type Trip = Awaited<ReturnType<typeof pickTrip>>

t.before(async () => {
  f = await openFixture({ daysAhead: 8 })
})
t.after(async () => {
  await f.close()
})

const balance = async (id: number) => (await f.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [id]))[0]!.balance

/** Another trip of `trip`'s route departing 80+ hours from now, its fares set to `fare` a seat. */
async function sibling(trip: Trip, fare: number): Promise<Trip> {
  const [row] = await f.db.query<{ id: number }>(
    `SELECT t.id FROM trips t WHERE t.route_id = (SELECT route_id FROM trips WHERE id = $1) AND t.id <> $1 AND t.status = 'OPEN'
        AND t.departure_at > $2 AND NOT EXISTS (SELECT 1 FROM reservation_seats s WHERE s.trip_id = t.id AND s.active)
      ORDER BY t.departure_at DESC LIMIT 1`,
    [trip.id, new Date(f.now().getTime() + 80 * 3_600_000)],
  )
  assert.ok(row, 'a sibling trip')
  await f.db.query(`UPDATE trips SET fares = (SELECT jsonb_object_agg(k, $2::int) FROM jsonb_object_keys(fares::jsonb) AS k) WHERE id = $1`, [
    row!.id,
    fare,
  ])
  const all = await f.db.query<{ id: number; trip_date: string; coach_code: string; departure_at: Date }>(
    'SELECT id, trip_date::text AS trip_date, coach_code, departure_at FROM trips WHERE id = $1',
    [row!.id],
  )
  return { ...trip, id: row!.id, tripDate: all[0]!.trip_date, coachCode: all[0]!.coach_code, departureAt: all[0]!.departure_at }
}

/** A ticket of `n` seats at `fare` a seat, paid from the balance (or `card` through the sandbox), 80+ hours before departure. */
async function ticket(n: number, fare: number, opts: { card?: boolean } = {}) {
  const p = await f.passenger({ balance: 50_000 })
  const trip = await pickTrip(f, { minHours: 80, maxHours: 110, skip: used++ })
  await f.db.query(`UPDATE trips SET fares = (SELECT jsonb_object_agg(k, $2::int) FROM jsonb_object_keys(fares::jsonb) AS k) WHERE id = $1`, [
    trip.id,
    fare,
  ])
  const seats = await freeSeats(f, trip.id, n)
  assert.is((await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: p.token })).status, 200)
  const booked = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats, { passengerMobile: p.mobile }), { token: p.token })
  assert.is(booked.status, 200, JSON.stringify(booked.body))
  if (opts.card) {
    const pay = await f.api('POST', '/api/reservation/payment', { reservationId: booked.body.data.id }, { token: p.token })
    assert.is(pay.status, 200, JSON.stringify(pay.body))
    await approve(pay.body.data.redirectUrl)
    const sold = await f.api('GET', `/api/reservation/details/${booked.body.data.id}`, undefined, { token: p.token })
    assert.is(sold.body.data.status, 1)
    return { p, trip, sold: sold.body.data }
  }
  const paid = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: booked.body.data.id }, { token: p.token })
  assert.is(paid.status, 200, JSON.stringify(paid.body))
  return { p, trip, sold: paid.body.data }
}

/** Approves a payment on the sandbox gateway's page; answers where the browser goes next. */
async function approve(url: string): Promise<string> {
  const res = await f.app.inject({
    method: 'POST',
    url,
    payload: 'decision=approve',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  assert.is(res.statusCode, 303, res.body)
  return String(res.headers.location)
}

/** Locks `n` free seats of `trip` for `who`; answers their names. */
async function lockNew(who: { token: string }, trip: Trip, n: number): Promise<string[]> {
  const seats = await freeSeats(f, trip.id, n)
  const lock = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: who.token })
  assert.is(lock.status, 200, JSON.stringify(lock.body))
  return seats
}

const quote = (who: { token: string }, id: number, tripId: number, seatNames: string[]) =>
  f.api('POST', '/api/reservation/changeQuote', { reservationId: id, tripId, seatNames }, { token: who.token })

/** Quotes, then confirms the change at the amounts quoted. */
async function change(who: { token: string }, sold: any, tripId: number, seatNames: string[], payWith?: string) {
  const q = await quote(who, sold.id, tripId, seatNames)
  assert.is(q.status, 200, JSON.stringify(q.body))
  const { toPay, refund } = q.body.data
  const body = { reservationId: sold.id, tripId, seatNames, fromTripId: sold.tripId, toPay, refund, ...(payWith ? { payWith } : {}) }
  return { quote: q.body.data, res: await f.api('POST', '/api/reservation/change', body, { token: who.token }) }
}

/** The outbox messages written for `mobile` and `email` since outbox id `after`. */
async function messagesSince(after: number) {
  return f.db.query<{ channel: string; to: string; body: string; subject: string | null }>(
    'SELECT channel, "to", body, subject FROM outbox_messages WHERE id > $1 ORDER BY id',
    [after],
  )
}
const lastOutboxId = async () => (await f.db.query<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM outbox_messages'))[0]!.id

/** The seat's status on the trip's live map (0 available; -1 free but held by someone's lock). */
async function mapStatus(trip: Trip, seat: string): Promise<number> {
  const s = await seatOnMap(f, trip, seat)
  return s.status === 0 && s.lockedByOther ? -1 : s.status
}

t('a dearer trip: the difference paid from the balance; same PNR and PIN, old seats free, one SMS and one e-mail, old QR revoked', async () => {
  const { p, trip, sold } = await ticket(2, 500)
  const to = await sibling(trip, 700)
  const seats = await lockNew(p, to, 2)
  const before = await balance(p.id)
  const mark = await lastOutboxId()
  const { quote: q, res } = await change(p, sold, to.id, seats)
  assert.equal([q.fare, q.newFare, q.charge, q.toPay, q.refund], [1000, 1400, 0, 400, 0])
  assert.is(res.status, 200, JSON.stringify(res.body))
  const moved = res.body.data.reservation
  assert.equal([moved.pnr, moved.pin, moved.tripId, moved.status], [sold.pnr, sold.pin, to.id, 1])
  assert.equal(moved.seats.map((s: { name: string }) => s.name).sort(), [...seats].sort())
  assert.is(moved.fare.total, 1400)
  assert.is(await balance(p.id), before - 400)
  assert.is(await mapStatus(trip, sold.seats[0].name), 0)
  assert.is(await mapStatus(to, seats[0]!), 1)
  const sent = await messagesSince(mark)
  assert.equal(
    sent.map((m) => m.channel),
    ['SMS', 'EMAIL'],
  )
  assert.match(sent[0]!.body, `Ticket ${sold.pnr} is changed`)
  assert.match(sent[0]!.body, 'You paid')
  const check = await f.api('GET', `/api/ticketCheck?date=${trip.tripDate}`)
  const revoked = check.body.data.revoked.filter((x: any) => x.tripId === trip.id && x.pnrHash === sha256(sold.pnr))
  assert.is(revoked.length, 1)
  assert.ok(new Date(revoked[0].before).getTime() >= f.now().getTime() - 1000, 'codes signed before the change are void')
})

/** Runs `fn` with the operator's change charge set to `charge` taka. */
async function withCharge(charge: number, fn: () => Promise<void>) {
  f.deps.config.ticketChangeCharge = charge
  try {
    await fn()
  } finally {
    f.deps.config.ticketChangeCharge = 0
  }
}

t('a cheaper trip: the difference refunded to the balance, less the operator’s change charge', () =>
  withCharge(50, async () => {
    const { p, trip, sold } = await ticket(2, 800)
    const to = await sibling(trip, 600)
    const seats = await lockNew(p, to, 2)
    const before = await balance(p.id)
    const { quote: q, res } = await change(p, sold, to.id, seats)
    assert.equal([q.fare, q.newFare, q.charge, q.toPay, q.refund, q.refundTo], [1600, 1200, 50, 0, 350, 'BALANCE'])
    assert.is(res.status, 200, JSON.stringify(res.body))
    assert.is(await balance(p.id), before + 350)
    const [ledger] = await f.db.query<{ reason: string; amount: number }>(
      "SELECT reason, amount FROM ledger WHERE passenger_id = $1 AND kind = 'REFUND' ORDER BY id DESC LIMIT 1",
      [p.id],
    )
    assert.equal(ledger, { reason: 'TICKET_CHANGED', amount: 350 })
  }),
)

t('the charge makes a cheaper trip cost: never a negative amount', () =>
  withCharge(300, async () => {
    const { p, trip, sold } = await ticket(1, 500)
    const to = await sibling(trip, 400)
    const seats = await lockNew(p, to, 1)
    const { quote: q, res } = await change(p, sold, to.id, seats)
    assert.equal([q.toPay, q.refund], [200, 0])
    assert.is(res.status, 200, JSON.stringify(res.body))
  }),
)

t('a card-paid ticket to a cheaper trip: the difference goes back to the card', async () => {
  const { p, trip, sold } = await ticket(1, 900, { card: true })
  const to = await sibling(trip, 600)
  const seats = await lockNew(p, to, 1)
  const { quote: q, res } = await change(p, sold, to.id, seats)
  assert.equal([q.refund, q.refundTo], [300, 'CARD'])
  assert.is(res.status, 200, JSON.stringify(res.body))
  const refunds = await f.db.query<{ amount: number; reason: string }>('SELECT amount, reason FROM refunds WHERE reservation_id = $1', [sold.id])
  assert.equal(refunds, [{ amount: 300, reason: 'TICKET_CHANGED' }])
})

/** Cancels ticket `sold` (its PNR and PIN) with the SMS code; answers the refund quoted and the refund the ticket shows. */
async function cancelWhole(who: { mobile: string }, sold: { pnr: string; pin: string }): Promise<[number, { to: string; amount: number }]> {
  const init = await f.api('GET', `/api/reservation/cancelInitialize/${sold.pnr}/${sold.pin}`)
  assert.is(init.status, 200, JSON.stringify(init.body))
  const c = await f.api('GET', `/api/reservation/cancel/${sold.pnr}/${sold.pin}/${await lastCode(f, who.mobile)}`)
  assert.is(c.status, 200, JSON.stringify(c.body))
  return [init.body.data.refundAmount, c.body.data.refund]
}

/** The card refunds of reservation `id`, by payment. */
const cardRefunds = async (id: number) =>
  (
    await f.db.query<{ payment_id: string; amount: number }>('SELECT payment_id, amount FROM refunds WHERE reservation_id = $1 ORDER BY payment_id', [
      id,
    ])
  )
    .map((x) => [x.payment_id, x.amount])
    .sort()

/** A 500 Tk ticket paid by card (`first`: that payment's id) changed to an 800 Tk trip, the difference paid with `payWith`. */
async function cardTicketMadeDearer(payWith: 'card' | 'balance') {
  const { p, trip, sold } = await ticket(1, 500, { card: true })
  const [first] = await f.db.query<{ id: string }>("SELECT id FROM payments WHERE reservation_id = $1 AND purpose = 'RESERVATION'", [sold.id])
  const to = await sibling(trip, 800)
  const seats = await lockNew(p, to, 1)
  const { res } = await change(p, sold, to.id, seats, payWith)
  assert.is(res.status, 200, JSON.stringify(res.body))
  return { p, sold, first: first!.id, res }
}

t(
  'paid by card, a dearer trip’s difference by card, then cancelled: both card payments refunded (the change’s first), none to the balance',
  async () => {
    const { p, sold, first, res } = await cardTicketMadeDearer('card')
    await approve(res.body.data.payment.redirectUrl)
    const before = await balance(p.id)
    const [refund, shown] = await cancelWhole(p, sold)
    assert.ok(refund > 300, `more than the change's payment took: ${refund}`)
    assert.equal(
      await cardRefunds(sold.id),
      [
        [first, refund - 300],
        [res.body.data.payment.paymentId, 300],
      ].sort(),
    )
    assert.equal([shown.to, shown.amount], ['CARD', refund], 'the ticket shows one refund to the card')
    assert.is(await balance(p.id), before, 'nothing to the balance')
  },
)

t('paid by card, the dearer trip’s difference from the balance, then cancelled: the card gets what it paid back, the balance the rest', async () => {
  const { p, sold, first } = await cardTicketMadeDearer('balance')
  const before = await balance(p.id)
  const [refund] = await cancelWhole(p, sold)
  assert.ok(refund > 500, `more than the card took: ${refund}`)
  assert.equal(await cardRefunds(sold.id), [[first, 500]])
  assert.is(await balance(p.id), before + refund - 500)
})

t(
  'the cancel quote names the real split: a balance-paid ticket whose dearer trip’s difference was paid by card gets the card’s part back there, the rest to the balance',
  async () => {
    const { p, trip, sold } = await ticket(1, 500)
    const to = await sibling(trip, 800)
    const seats = await lockNew(p, to, 1)
    const { res } = await change(p, sold, to.id, seats, 'card')
    assert.is(res.status, 200, JSON.stringify(res.body))
    await approve(res.body.data.payment.redirectUrl)
    const init = await f.api('GET', `/api/reservation/cancelInitialize/${sold.pnr}/${sold.pin}`)
    assert.is(init.status, 200, JSON.stringify(init.body))
    const q = init.body.data
    assert.ok(q.refundAmount > 300, `more than the card took: ${q.refundAmount}`)
    assert.equal(q.refundParts, [
      { to: 'CARD', amount: 300, paidWith: 'card' },
      { to: 'BALANCE', amount: q.refundAmount - 300, paidWith: null },
    ])
    assert.is(q.refundTo, 'CARD', 'some of it goes back to the card')
    const before = await balance(p.id)
    const c = await f.api('GET', `/api/reservation/cancel/${sold.pnr}/${sold.pin}/${await lastCode(f, p.mobile)}`)
    assert.is(c.status, 200, JSON.stringify(c.body))
    assert.equal(await cardRefunds(sold.id), [[res.body.data.payment.paymentId, 300]], 'as quoted: the card’s part')
    assert.is(await balance(p.id), before + q.refundAmount - 300, 'as quoted: the rest to the balance')
    // the SMS and the e-mail name each part, not "the card" for the whole
    const [sms] = await f.db.query<{ body: string }>(
      "SELECT body FROM outbox_messages WHERE channel = 'SMS' AND \"to\" = $1 AND body LIKE '%cancelled%' ORDER BY id DESC LIMIT 1",
      [p.mobile],
    )
    const rest = (q.refundAmount - 300).toLocaleString('en-US')
    assert.match(
      sms!.body,
      `300 Tk is being refunded to the card you paid with and ${rest} Tk to your balance; your bank may take a few days to show it.`,
    )
    const [mail] = await f.db.query<{ body: string }>(
      "SELECT body FROM outbox_messages WHERE channel = 'EMAIL' AND body LIKE $1 ORDER BY id DESC LIMIT 1",
      [`%${sold.pnr}%cancelled%`],
    )
    assert.match(mail!.body, `and ${rest} Tk to your balance`)
  },
)

t(
  'the change quote names the real split too: moved back to a cheaper trip, the card’s part of the difference goes back to it, the rest to the balance',
  async () => {
    const { p, trip, sold } = await ticket(1, 500)
    const dearer = await sibling(trip, 800)
    const { res } = await change(p, sold, dearer.id, await lockNew(p, dearer, 1), 'card')
    assert.is(res.status, 200, JSON.stringify(res.body))
    await approve(res.body.data.payment.redirectUrl)
    // back to a trip at 200: 600 Tk back, 300 of it paid by card
    const cheaper = await sibling(dearer, 200)
    const seats = await lockNew(p, cheaper, 1)
    const q = await quote(p, sold.id, cheaper.id, seats)
    assert.is(q.status, 200, JSON.stringify(q.body))
    const refund = q.body.data.refund
    assert.ok(refund > 300, `more than the card took: ${refund}`)
    assert.equal(q.body.data.refundParts, [
      { to: 'CARD', amount: 300, paidWith: 'card' },
      { to: 'BALANCE', amount: refund - 300, paidWith: null },
    ])
    assert.is(q.body.data.refundTo, 'CARD')
    const before = await balance(p.id)
    const moved = await f.api(
      'POST',
      '/api/reservation/change',
      { reservationId: sold.id, fromTripId: dearer.id, tripId: cheaper.id, seatNames: seats, toPay: 0, refund },
      { token: p.token },
    )
    assert.is(moved.status, 200, JSON.stringify(moved.body))
    assert.equal(await cardRefunds(sold.id), [[res.body.data.payment.paymentId, 300]], 'as quoted: the card’s part')
    assert.is(await balance(p.id), before + refund - 300, 'as quoted: the rest to the balance')
  },
)

t('the cancel quote of a card-paid ticket whose difference came from the balance: the card’s part, then the balance’s', async () => {
  const { sold } = await cardTicketMadeDearer('balance')
  const q = (await f.api('GET', `/api/reservation/cancelInitialize/${sold.pnr}/${sold.pin}`)).body.data
  assert.equal(q.refundParts, [
    { to: 'CARD', amount: 500, paidWith: 'card' },
    { to: 'BALANCE', amount: q.refundAmount - 500, paidWith: null },
  ])
})

t('the difference paid by bKash on the gateway’s page: the change is made when the payment is', async () => {
  const { p, trip, sold } = await ticket(1, 500)
  const to = await sibling(trip, 800)
  const seats = await lockNew(p, to, 1)
  const { res } = await change(p, sold, to.id, seats, 'bkash')
  assert.is(res.status, 200, JSON.stringify(res.body))
  assert.is(res.body.data.reservation, null)
  // the passenger's page releasing its locks does not give the seats away while they pay
  await f.api('POST', '/api/reservation/seatLock', lockBody(to, seats, false), { token: p.token })
  assert.is(await mapStatus(to, seats[0]!), -1, 'held for the change')
  const still = await f.api('GET', `/api/reservation/details/${sold.id}`, undefined, { token: p.token })
  assert.is(still.body.data.tripId, trip.id, 'unchanged until paid')
  const mark = await lastOutboxId()
  assert.match(await approve(res.body.data.payment.redirectUrl), `/ticket-operation?reservationId=${sold.id}&change=success`)
  const after = await f.api('GET', `/api/reservation/details/${sold.id}`, undefined, { token: p.token })
  assert.equal([after.body.data.tripId, after.body.data.pnr, after.body.data.fare.total], [to.id, sold.pnr, 800])
  const sent = await messagesSince(mark)
  assert.equal(
    sent.map((m) => m.channel),
    ['SMS', 'EMAIL'],
  )
})

t('a payment that arrives after the change expired is refunded where it came from, the passenger told, the ticket unchanged', async () => {
  const { p, trip, sold } = await ticket(1, 500)
  const to = await sibling(trip, 800)
  const seats = await lockNew(p, to, 1)
  const { res } = await change(p, sold, to.id, seats, 'nagad')
  assert.is(res.status, 200, JSON.stringify(res.body))
  f.advance(f.deps.config.holdMinutes + 1)
  const mark = await lastOutboxId()
  await approve(res.body.data.payment.redirectUrl)
  const after = await f.api('GET', `/api/reservation/details/${sold.id}`, undefined, { token: p.token })
  assert.is(after.body.data.tripId, trip.id)
  const refunds = await f.db.query<{ amount: number; payment_id: string }>('SELECT amount, payment_id FROM refunds WHERE reservation_id = $1', [
    sold.id,
  ])
  assert.equal(
    refunds.map((x) => [x.amount, x.payment_id]),
    [[300, res.body.data.payment.paymentId]],
  )
  const sent = await messagesSince(mark)
  assert.is(sent.filter((m) => m.channel === 'SMS').length, 1)
  assert.match(sent[0]!.body, 'your Nagad wallet')
  assert.match(sent[0]!.body, 'the ticket is unchanged')
})

t('a second change replaces one left at the gateway: the first one’s payment is refunded when it arrives', async () => {
  const { p, trip, sold } = await ticket(1, 500)
  const to = await sibling(trip, 800)
  const seats = await lockNew(p, to, 1)
  const first = await change(p, sold, to.id, seats, 'card')
  assert.is(first.res.status, 200, JSON.stringify(first.res.body))
  const other = await lockNew(p, to, 1)
  const second = await change(p, sold, to.id, other)
  assert.is(second.res.status, 200, JSON.stringify(second.res.body))
  assert.is(await mapStatus(to, seats[0]!), 0, 'the first change’s seat is free again')
  await approve(first.res.body.data.payment.redirectUrl)
  const after = await f.api('GET', `/api/reservation/details/${sold.id}`, undefined, { token: p.token })
  assert.equal(
    after.body.data.seats.map((s: { name: string }) => s.name),
    other,
  )
  const refunds = await f.db.query<{ amount: number }>('SELECT amount FROM refunds WHERE payment_id = $1', [first.res.body.data.payment.paymentId])
  assert.equal(refunds, [{ amount: 300 }])
})

t('refused: after the cancel cut-off, a trip not on sale, another route, a cancelled ticket, taken seats, stale amounts', async () => {
  const { p, trip, sold } = await ticket(1, 500)
  const to = await sibling(trip, 500)
  const seats = await lockNew(p, to, 1)
  // not on sale yet (migration 040)
  await f.db.query('UPDATE trips SET sale_opens_at = $2 WHERE id = $1', [to.id, new Date(f.now().getTime() + 3_600_000)])
  assert.is(code(await quote(p, sold.id, to.id, seats)), 'SALE_NOT_OPEN')
  await f.db.query('UPDATE trips SET sale_opens_at = NULL WHERE id = $1', [to.id])
  // another route
  const [elsewhere] = await f.db.query<{ id: number }>(
    "SELECT id FROM trips WHERE route_id <> (SELECT route_id FROM trips WHERE id = $1) AND status = 'OPEN' AND departure_at > $2 LIMIT 1",
    [trip.id, new Date(f.now().getTime() + 80 * 3_600_000)],
  )
  assert.is(code(await quote(p, sold.id, elsewhere!.id, seats)), 'TRIP_NOT_ALLOWED')
  // the same trip, or another number of seats
  assert.is(code(await quote(p, sold.id, trip.id, seats)), 'VALIDATION_FAILED')
  assert.is(code(await quote(p, sold.id, to.id, [...seats, 'Z9'])), 'VALIDATION_FAILED')
  // another passenger's ticket
  const stranger = await f.passenger()
  assert.is(code(await quote(stranger, sold.id, to.id, seats)), 'RESERVATION_NOT_ACCESSIBLE')
  // stale amounts
  const stale = { reservationId: sold.id, tripId: to.id, seatNames: seats, fromTripId: sold.tripId, toPay: 0, refund: 100 }
  assert.is(code(await f.api('POST', '/api/reservation/change', stale, { token: p.token })), 'RETURN_AMOUNT_MISMATCH')
  // seats someone else holds
  const taken = await freeSeats(f, to.id, 1)
  const rival = await f.passenger()
  assert.is((await f.api('POST', '/api/reservation/seatLock', lockBody(to, taken), { token: rival.token })).status, 200)
  const grab = { ...stale, seatNames: taken, toPay: 0, refund: 0 }
  assert.is(code(await f.api('POST', '/api/reservation/change', grab, { token: p.token })), 'SEAT_UNAVAILABLE')
  // after the cancel cut-off (6 hours before departure)
  const snapshot = await f.snapshot()
  const was = f.now()
  f.setNow(new Date(trip.departureAt.getTime() - 5 * 3_600_000))
  try {
    assert.is(code(await quote(p, sold.id, to.id, seats)), 'RESERVATION_CANCEL_TIME_EXPIRED')
    const late = { ...stale, toPay: 0, refund: 0 }
    assert.is(code(await f.api('POST', '/api/reservation/change', late, { token: p.token })), 'RESERVATION_CANCEL_TIME_EXPIRED')
  } finally {
    f.setNow(was)
  }
  assert.is(await f.snapshot(), snapshot, 'nothing changed by the refusals')
  // a cancelled ticket
  await f.db.query('UPDATE reservations SET status = 5 WHERE id = $1', [sold.id])
  assert.is(code(await quote(p, sold.id, to.id, seats)), 'RESERVATION_NOT_CHANGEABLE')
})

t('a change to another date counts against that date’s seats per passenger', async () => {
  const { p, trip, sold } = await ticket(1, 500)
  const to = await sibling(trip, 500)
  assert.not.equal(to.tripDate, trip.tripDate)
  const had = await lockNew(p, to, 1)
  const booked = await f.api('POST', '/api/reservation/booking', bookingBody(to, had, { passengerMobile: p.mobile }), { token: p.token })
  assert.is(booked.status, 200, JSON.stringify(booked.body))
  assert.is((await f.api('POST', '/api/reservation/payFromBalance', { reservationId: booked.body.data.id }, { token: p.token })).status, 200)
  const seats = await lockNew(p, to, 1)
  const cap = f.deps.config.seatsPerPassengerPerDate
  f.deps.config.seatsPerPassengerPerDate = 1
  try {
    const { res } = await change(p, sold, to.id, seats)
    assert.is(code(res), 'SEAT_LIMIT_EXCEEDED')
  } finally {
    f.deps.config.seatsPerPassengerPerDate = cap
  }
  const still = await f.api('GET', `/api/reservation/details/${sold.id}`, undefined, { token: p.token })
  assert.is(still.body.data.tripId, trip.id)
})

/** A live unpaid booking of `n` seats at `fare` a seat, 80+ hours before departure. */
async function booking(n: number, fare: number) {
  const p = await f.passenger({ balance: 50_000 })
  const trip = await pickTrip(f, { minHours: 80, maxHours: 110, skip: used++ })
  await f.db.query(`UPDATE trips SET fares = (SELECT jsonb_object_agg(k, $2::int) FROM jsonb_object_keys(fares::jsonb) AS k) WHERE id = $1`, [
    trip.id,
    fare,
  ])
  const seats = await lockNew(p, trip, n)
  const booked = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats, { passengerMobile: p.mobile }), { token: p.token })
  assert.is(booked.status, 200, JSON.stringify(booked.body))
  assert.is(booked.body.data.status, 2)
  return { p, trip, booked: booked.body.data }
}

const expiresAt = async (id: number) =>
  (await f.db.query<{ at: Date }>('SELECT expiration_time AS at FROM reservations WHERE id = $1', [id]))[0]!.at.getTime()

t(
  'a live unpaid booking moves to another trip: the same booking, still unpaid, its total the new fare, its deadline kept, no money, no message',
  () =>
    withCharge(50, async () => {
      const { p, trip, booked } = await booking(2, 500)
      const to = await sibling(trip, 700)
      const seats = await lockNew(p, to, 2)
      const before = await balance(p.id)
      const deadline = await expiresAt(booked.id)
      const mark = await lastOutboxId()
      f.advance(2)
      const { quote: q, res } = await change(p, booked, to.id, seats)
      assert.equal([q.fare, q.newFare, q.charge, q.toPay, q.refund], [1000, 1400, 0, 0, 0])
      assert.is(res.status, 200, JSON.stringify(res.body))
      const moved = res.body.data.reservation
      assert.equal([moved.id, moved.tripId, moved.status, moved.fare.total], [booked.id, to.id, 2, 1400])
      assert.equal(moved.seats.map((s: { name: string }) => s.name).sort(), [...seats].sort())
      assert.is(await expiresAt(booked.id), deadline, 'the payment deadline is not renewed')
      assert.is(await balance(p.id), before)
      assert.equal(await messagesSince(mark), [])
      assert.is(await mapStatus(trip, booked.seats[0].name), 0)
      assert.is(await mapStatus(to, seats[0]!), 2)
      // it is paid as any booking, at the new fare
      const paid = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: booked.id }, { token: p.token })
      assert.is(paid.status, 200, JSON.stringify(paid.body))
      assert.is(await balance(p.id), before - 1400)
    }),
)

t('a booking is refused its change: expired, another route, a trip not on sale, a round trip’s leg, past the new date’s cap', async () => {
  const { p, trip, booked } = await booking(1, 500)
  const to = await sibling(trip, 500)
  const seats = await lockNew(p, to, 1)
  const [elsewhere] = await f.db.query<{ id: number }>(
    "SELECT id FROM trips WHERE route_id <> (SELECT route_id FROM trips WHERE id = $1) AND status = 'OPEN' AND departure_at > $2 LIMIT 1",
    [trip.id, new Date(f.now().getTime() + 80 * 3_600_000)],
  )
  assert.is(code(await quote(p, booked.id, elsewhere!.id, seats)), 'TRIP_NOT_ALLOWED')
  await f.db.query('UPDATE trips SET sale_opens_at = $2 WHERE id = $1', [to.id, new Date(f.now().getTime() + 3_600_000)])
  assert.is(code(await quote(p, booked.id, to.id, seats)), 'SALE_NOT_OPEN')
  await f.db.query('UPDATE trips SET sale_opens_at = NULL WHERE id = $1', [to.id])
  const cap = f.deps.config.seatsPerPassengerPerDate
  const [{ n } = { n: 0 }] = await f.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id JOIN trips t ON t.id = rs.trip_id
      WHERE x.passenger_id = $1 AND rs.active AND t.trip_date = $2::date`,
    [p.id, to.tripDate],
  )
  f.deps.config.seatsPerPassengerPerDate = n
  try {
    const { res } = await change(p, booked, to.id, seats)
    assert.is(code(res), 'SEAT_LIMIT_EXCEEDED')
  } finally {
    f.deps.config.seatsPerPassengerPerDate = cap
  }
  await f.db.query('UPDATE reservations SET outbound_reservation_id = $2 WHERE id = $1', [booked.id, booked.id])
  assert.is(code(await quote(p, booked.id, to.id, seats)), 'RESERVATION_NOT_CHANGEABLE')
  await f.db.query('UPDATE reservations SET outbound_reservation_id = NULL WHERE id = $1', [booked.id])
  assert.is((await quote(p, booked.id, to.id, seats)).status, 200)
  const was = f.now()
  f.setNow(new Date((await expiresAt(booked.id)) + 1000))
  try {
    assert.is(code(await quote(p, booked.id, to.id, seats)), 'BOOKING_NOT_FOUND')
  } finally {
    f.setNow(was)
  }
  const still = await f.api('GET', `/api/reservation/details/${booked.id}`, undefined, { token: p.token })
  assert.equal([still.body.data.tripId, still.body.data.status], [trip.id, 2])
})

t('the request is checked by the contract', async () => {
  const p = await f.passenger()
  const bad = await f.api(
    'POST',
    '/api/reservation/change',
    { reservationId: 1, tripId: 2, seatNames: [], fromTripId: 1, toPay: -5, refund: 0 },
    { token: p.token },
  )
  assert.is(code(bad), 'VALIDATION_FAILED')
  assert.is((await f.api('POST', '/api/reservation/changeQuote', { reservationId: 1, tripId: 2, seatNames: ['A1'] })).status, 401)
})

t.run()
