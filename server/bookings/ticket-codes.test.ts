/**
 * The ticket SMS's link (opens the ticket without its PIN, cannot cancel, a tampered or
 * replaced one refused with TICKET_LINK_INVALID), the signed QR code on every live ticket,
 * and the checker's public key, trips and revocation list.
 */
import { webcrypto } from 'node:crypto'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { reservationStatus } from '../../contract/values.ts'
import { pnrHash, verifyTicketCode } from '../../contract/ticket-code.ts'
import { buyTicket, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'
import { revokeTicketLink } from './ticket-codes.ts'

const t = suite('ticket links and codes')
let f: Fixture
let trips = 0
const nextTrip = () => pickTrip(f, { skip: trips++ * 5 + 2, minHours: 72 })
const code = (r: { body: any }) => r.body?.error?.code
const subtle = webcrypto.subtle as unknown as SubtleCrypto

/** The link token in the newest ticket SMS to `mobile`. */
async function linkToken(mobile: string): Promise<string> {
  const [row] = await f.db.query<{ body: string }>(
    `SELECT body FROM outbox_messages WHERE "to" = $1 AND channel = 'SMS' AND body LIKE '%/t?k=%' ORDER BY id DESC LIMIT 1`,
    [mobile],
  )
  const m = row?.body.match(/\/t\?k=([A-Za-z0-9_-]{16})(?:\s|$)/)
  if (!m) throw new Error(`no ticket link sent to ${mobile}`)
  return m[1]!
}

const checkerKeys = async () => (await f.api('GET', `/api/ticketCheck?date=2000-01-01`)).body.data.keys

t.before(async () => {
  f = await openFixture()
})
t.after(async () => {
  await f.close()
})

t('the ticket SMS link opens the ticket without its PIN; it cannot cancel; the database keeps only its hash', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const sold = await buyTicket(f, p, await nextTrip())
  const mobile = sold.passengerMobile
  const token = await linkToken(mobile)
  const r = await f.api('GET', `/api/reservation/link/${token}`)
  assert.is(r.status, 200)
  assert.is(r.body.data.pnr, sold.pnr)
  assert.is(r.body.data.pin, null, 'the link never gives the PIN, which cancelling needs')
  assert.equal(
    r.body.data.seats.map((s: any) => s.name),
    sold.seats.map((s: any) => s.name),
  )
  const [row] = await f.db.query<{ link_token_hash: string }>('SELECT link_token_hash FROM reservations WHERE id = $1', [sold.id])
  assert.ok(row && row.link_token_hash !== token && !JSON.stringify(row).includes(token), 'only the hash is stored')
  // the cancel routes take a PNR and PIN; the token is no PIN
  for (const path of [`/api/reservation/cancelInitialize/${sold.pnr}/${token}`, `/api/reservation/cancel/${sold.pnr}/${token}/123456`]) {
    const c = await f.api('GET', path)
    assert.is(c.status >= 400, true, path)
  }
  const after = await f.api('GET', `/api/reservation/link/${token}`)
  assert.is(after.body.data.status, reservationStatus.sold, 'the ticket is still sold')
})

t('a tampered, unknown or revoked link is refused with TICKET_LINK_INVALID', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const sold = await buyTicket(f, p, await nextTrip())
  const token = await linkToken(sold.passengerMobile)
  const last = token.at(-1) === 'A' ? 'B' : 'A'
  for (const bad of [token.slice(0, -1) + last, 'A'.repeat(16), token.slice(0, 15), `${token}x`, 'not-a-token!'])
    assert.is(code(await f.api('GET', `/api/reservation/link/${encodeURIComponent(bad)}`)), 'TICKET_LINK_INVALID', bad)
  assert.ok(await revokeTicketLink(f.db, sold.pnr))
  assert.is(code(await f.api('GET', `/api/reservation/link/${token}`)), 'TICKET_LINK_INVALID')
})

t('a live ticket carries a QR code signed with the key the checker is served; an edited one fails', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const sold = await buyTicket(f, p, await nextTrip())
  const r = await f.api('GET', `/api/reservation/details/${sold.pnr}/${sold.pin}`)
  const qr: string = r.body.data.ticketCode
  const payload = await verifyTicketCode(qr, await checkerKeys(), subtle)
  assert.equal(payload && { p: payload.p, t: payload.t, s: payload.s, n: payload.n }, {
    p: sold.pnr,
    t: sold.tripId,
    s: sold.seats.map((s: any) => s.name),
    n: sold.passengerName,
  })
  const [head, body, sig] = qr.split('.') as [string, string, string]
  const json = JSON.parse(Buffer.from(body, 'base64url').toString())
  const edited = `${head}.${Buffer.from(JSON.stringify({ ...json, s: [...json.s, 'Z9'] })).toString('base64url')}.${sig}`
  assert.is(await verifyTicketCode(edited, await checkerKeys(), subtle), null)
})

t('the revocation list names the cancelled ticket of a trip, by PNR hash, and not the live one', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const trip = await nextTrip()
  const kept = await buyTicket(f, p, trip, 1)
  const gone = await buyTicket(f, p, trip, 1)
  const changed = await buyTicket(f, p, trip, 1)
  await f.db.query(`UPDATE reservations SET status = $2, canceled_at = now() WHERE id = $1`, [gone.id, reservationStatus.canceled])
  await f.db.query(`UPDATE reservations SET ticket_changed_at = $2 WHERE id = $1`, [changed.id, f.now()])
  const r = await f.api('GET', `/api/ticketCheck?date=${trip.tripDate}`)
  assert.is(r.status, 200)
  const data = r.body.data
  assert.ok(data.trips.some((x: any) => x.id === trip.id && x.coachCode === trip.coachCode))
  const mine = data.revoked.filter((x: any) => x.tripId === trip.id)
  const entry = async (pnr: string) => {
    const h = await pnrHash(pnr, subtle)
    return mine.filter((x: any) => x.pnrHash === h).map((x: any) => x.before)
  }
  assert.equal(await entry(gone.pnr), [null], 'every code of the cancelled ticket is void')
  assert.equal(await entry(kept.pnr), [], 'the live ticket is not listed')
  const before = await entry(changed.pnr)
  assert.is(before.length, 1)
  assert.is(Date.parse(before[0]), f.now().getTime(), 'codes of the changed ticket signed before the change are void')
  assert.ok(!JSON.stringify(data).includes(gone.pnr), 'PNRs are not published')
  assert.is(code(await f.api('GET', '/api/ticketCheck?date=tomorrow')), 'VALIDATION_FAILED')
})

t.run()
