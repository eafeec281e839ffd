/**
 * Reservation and seat statuses are named on the server: the server's code (server/ outside
 * its tests, migrations and SQL functions) compares and sets them through the contract's `reservationStatus`
 * and `seatStatus`, in TypeScript and in the SQL it sends, and "a booking is still live"
 * through `bookingLive` (TypeScript) or `booking_live` (SQL, db/functions/booking_live.sql). This test reads
 * the files and fails naming each line where a bare status number is back.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { reservationStatus, seatStatus } from '../../contract/schemas.ts'

const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** Left out: the migrations and SQL functions (the SQL that defines the numbers) and the tests (they check the wire values). */
const skipped = [path.join(server, 'db', 'migrations'), path.join(server, 'db', 'functions'), path.join(server, 'test')]

// Every reservation and seat status number; HTTP statuses (3 digits) are never among them.
const codes = [...new Set([...Object.values(reservationStatus), ...Object.values(seatStatus)])].sort((a, b) => b - a).join('|')
const num = `(?:${codes})(?!\\d)`
/** A status compared, assigned, listed or typed with a digit, in TypeScript or SQL. */
const patterns: RegExp[] = [
  // status = 2, x.status <> 5, r.status === 1, status !== 2, SET status = 5, CASE WHEN u.status = 1
  new RegExp(`\\bstatus\\s*(?:=|==|===|<>|!=|!==)\\s*${num}`, 'i'),
  // 2 === r.status
  new RegExp(`(?<![\\w.$])${num}\\s*(?:==|===|!=|!==|<>|=)\\s*[\\w.]*\\bstatus\\b`, 'i'),
  // status IN (1, 10), status = ANY('{1,2}'), status = ANY(ARRAY[1, 2])
  new RegExp(`\\bstatus\\s+(?:NOT\\s+)?IN\\s*\\(\\s*${num}`, 'i'),
  new RegExp(`\\bstatus\\s*=\\s*ANY\\s*\\(\\s*(?:'\\{|ARRAY\\s*\\[)\\s*${num}`, 'i'),
  // status: 1 (object literal) or status: 1 | 2 (type); not a command's "Exit status: 0 …"
  new RegExp(`(?<!exit\\s)\\bstatus\\??\\s*:\\s*${num}`, 'i'),
  // [1, 2].includes(r.status)
  new RegExp(`\\[\\s*${num}(?:\\s*,\\s*\\d+)*\\s*\\]\\s*\\.includes\\(\\s*[\\w.]*status\\b`, 'i'),
  // booking_live(2, …) or seat_taken(true, 1, …): a number where SQL wants the row's status
  new RegExp(`\\b(?:booking_live\\s*\\(|seat_taken\\s*\\([^,]*,)\\s*${num}`, 'i'),
]

/** Each line of `text` that matches a pattern, as `line: text`. */
function bareStatuses(text: string): string[] {
  return text.split('\n').flatMap((line, i) => (patterns.some((p) => p.test(line)) ? [`${i + 1}: ${line.trim()}`] : []))
}

function serverSources(): string[] {
  return (fs.readdirSync(server, { recursive: true }) as string[])
    .map((f) => path.join(server, f))
    .filter((f) => /\.(ts|sql)$/.test(f) && !/\.test\.ts$/.test(f) && !skipped.some((d) => f.startsWith(d + path.sep)))
    .sort()
}

test('the scan catches each way a bare status was written, and not HTTP statuses or names', () => {
  const caught = [
    'UPDATE reservations SET status = 5, canceled_at = $2 WHERE id = $1',
    'WHERE rs.trip_id = $1 AND x.status = 2 AND x.expiration_time > $3',
    'if (r.status !== 2 || !r.expiration_time) throw new AppError()',
    'if (r.status === 1) throw new AppError()',
    "CASE WHEN u.status = 1 THEN 'CARD' END",
    'WHERE status IN (1, 10)',
    "WHERE x.status = ANY('{1,2}')",
    'status: 1,',
    'status: 1 | 2',
    'if (2 === r.status) return',
    '[1, 2].includes(r.status)',
    'const locked = s.holder !== null && s.status === 0',
    'WHERE x.status <> 14',
    'AND booking_live(2, x.expiration_time, $1)',
  ]
  for (const line of caught) assert.equal(bareStatuses(line).length, 1, `not caught: ${line}`)
  const passed = [
    'if (res.status === 429 || res.status >= 500) return',
    "new AppError('VALIDATION_FAILED', { status: 413, reason: 'too large' })",
    'status: 503,',
    `UPDATE reservations SET status = \${reservationStatus.canceled} WHERE id = $1`,
    "WHERE t.status = 'OPEN' AND x.status = $2",
    'AND booking_live(x.status, x.expiration_time, $3)',
    'if (r.status === reservationStatus.sold) return',
    'status: reservationStatus.booked,',
    'SELECT status FROM trips WHERE id = $1',
    ' * Exit status: 0 imported, 1 refused or failed, 2 usage.',
  ]
  for (const line of passed) assert.equal(bareStatuses(line), [], `flagged: ${line}`)
})

test('no bare reservation or seat status number in server/ outside its migrations, SQL functions and tests', () => {
  const files = serverSources()
  // the walk found the server's code (not an empty or wrong folder)
  for (const f of ['bookings/bookings.ts', 'bookings/payments.ts', 'bookings/tickets.ts', 'routes/tickets.ts', 'trips/trips.ts']) {
    assert.ok(files.includes(path.join(server, f)), `${f} was not scanned`)
  }
  const hits = files.flatMap((f) => bareStatuses(fs.readFileSync(f, 'utf8')).map((h) => `${path.relative(server, f)}:${h}`))
  assert.equal(hits, [], `bare status numbers (use reservationStatus / seatStatus, bookingLive or booking_live):\n${hits.join('\n')}`)
})

test.run()
