/**
 * The operator's bigger coach for a trip (issue 30 item 4: "an operator adding a coach"):
 *
 *   npm run trip -- add-seats <tripId> --layout <layoutCode> [--fares Standard=900,Business=1200] [--dry-run]
 *
 * The trip keeps its id, tickets and holds; its coach becomes the layout given, which must keep
 * every seat of the old one (by name) and add some. The new seats go at once to the trip's
 * waitlist (offerFreedSeats: SMS and page), each seat offered once however many processes sweep.
 * Run by trip-command.ts.
 */
import type { Deps } from '../core.ts'
import { offerFreedSeats, type Offer } from '../waitlist/waitlist.ts'

/** The add-seats sub-command. */
export interface AddSeatsCommand {
  kind: 'add-seats'
  tripId: number
  layout: string
  fares: Record<string, number>
  dryRun: boolean
}

/** Usage lines of the sub-command. */
export const addSeatsUsage = ['       npm run trip -- add-seats <tripId> --layout <layoutCode> [--fares Standard=900,Business=1200] [--dry-run]']

/** The add-seats command in `args` (after "add-seats"), or a message saying what is wrong. */
export function parseAddSeatsCommand(args: string[], usage: string): AddSeatsCommand | string {
  const [id, ...rest] = args
  const tripId = Number(id)
  if (!id || !/^\d+$/.test(id) || !Number.isSafeInteger(tripId) || tripId < 1) return usage
  const flags = new Map<string, string>()
  let dryRun = false
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!
    if (a === '--dry-run') dryRun = true
    else if (['--layout', '--fares'].includes(a) && rest[i + 1] !== undefined && !flags.has(a)) flags.set(a, rest[++i]!)
    else return `unknown, repeated or incomplete option ${a}\n${usage}`
  }
  const layout = flags.get('--layout')?.trim()
  if (!layout) return `add-seats needs --layout <layoutCode>\n${usage}`
  const fares: Record<string, number> = {}
  for (const pair of (flags.get('--fares') ?? '').split(',').filter(Boolean)) {
    const m = /^\s*([A-Za-z ]+?)\s*=\s*(\d{1,6})\s*$/.exec(pair)
    if (!m || Number(m[2]) < 1) return `--fares takes SeatType=Taka pairs separated by commas, not "${pair}"`
    fares[m[1]!] = Number(m[2])
  }
  return { kind: 'add-seats', tripId, layout, fares, dryRun }
}

/** What add-seats did (or would do): the trip, its seats before and after, the offers made to its waitlist. */
export interface AddSeatsReport {
  tripId: number
  coachCode: string
  seatsBefore: number
  seatsAfter: number
  waiting: number
  offers: Offer[]
}

/** Thrown for a change the trip or layout does not allow; the message says why. */
export class AddSeatsError extends Error {}

/** Gives trip `cmd.tripId` the bigger layout `cmd.layout` and offers the new seats to its waitlist at once. */
export async function addSeats(deps: Deps, cmd: Omit<AddSeatsCommand, 'kind'>): Promise<AddSeatsReport> {
  const now = deps.now()
  const done = await deps.db.transaction(async (tx) => {
    const [trip] = await tx.query<{ coach_code: string; layout_id: number; status: string; departure_at: Date; fares: Record<string, number> }>(
      'SELECT coach_code, layout_id, status, departure_at, fares FROM trips WHERE id = $1 FOR UPDATE',
      [cmd.tripId],
    )
    if (!trip) throw new AddSeatsError(`No trip ${cmd.tripId}.`)
    if (trip.status !== 'OPEN' || trip.departure_at <= now)
      throw new AddSeatsError(`Trip ${cmd.tripId} is not open for sale (${trip.status}, or departed).`)
    const [layout] = await tx.query<{ id: number }>('SELECT id FROM layouts WHERE code = $1 AND NOT retired', [cmd.layout])
    if (!layout) throw new AddSeatsError(`No layout ${cmd.layout}.`)
    const [seats] = await tx.query<{ before: number; after: number; missing: string[]; types: string[] }>(
      `SELECT (SELECT count(*)::int FROM layout_seats WHERE layout_id = $1 AND name <> 'OPEN') AS before,
              (SELECT count(*)::int FROM layout_seats WHERE layout_id = $2 AND name <> 'OPEN') AS after,
              (SELECT coalesce(array_agg(o.name ORDER BY o.name), '{}') FROM layout_seats o
                WHERE o.layout_id = $1 AND NOT EXISTS (SELECT 1 FROM layout_seats n WHERE n.layout_id = $2 AND n.name = o.name)) AS missing,
              (SELECT coalesce(array_agg(DISTINCT seat_type), '{}') FROM layout_seats WHERE layout_id = $2) AS types`,
      [trip.layout_id, layout.id],
    )
    const s = seats!
    // every old seat keeps its name: tickets, holds and a seat lock taken meanwhile stay valid
    if (s.missing.length > 0)
      throw new AddSeatsError(`Layout ${cmd.layout} has no seat ${s.missing.join(', ')} of the trip's coach: it must keep every seat.`)
    if (s.after <= s.before) throw new AddSeatsError(`Layout ${cmd.layout} has ${s.after} seats, the trip's coach ${s.before}: no seat to add.`)
    const fares = { ...trip.fares, ...cmd.fares }
    const unpriced = s.types.filter((t) => !(t in fares))
    if (unpriced.length > 0) throw new AddSeatsError(`The trip has no fare for seat type ${unpriced.join(', ')}: give --fares ${unpriced[0]}=<Taka>.`)
    const [w] = await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM waitlist WHERE trip_id = $1 AND status = 'WAITING'", [cmd.tripId])
    if (!cmd.dryRun)
      await tx.query('UPDATE trips SET layout_id = $2, fares = $3::jsonb WHERE id = $1', [cmd.tripId, layout.id, JSON.stringify(fares)])
    return { tripId: cmd.tripId, coachCode: trip.coach_code, seatsBefore: s.before, seatsAfter: s.after, waiting: w!.n, offers: [] as Offer[] }
  })
  if (cmd.dryRun) return done
  return { ...done, offers: await offerFreedSeats(deps, cmd.tripId) }
}

/** Runs add-seats and prints its report; answers the exit status (1: refused). */
export async function runAddSeatsCommand(deps: Deps, cmd: AddSeatsCommand): Promise<number> {
  try {
    const r = await addSeats(deps, cmd)
    const verb = cmd.dryRun ? 'would have' : 'now has'
    console.log(
      `Trip ${r.tripId} (coach ${r.coachCode}) ${verb} ${r.seatsAfter} seats instead of ${r.seatsBefore}; ${r.waiting} waiting on its waitlist.`,
    )
    if (!cmd.dryRun) {
      for (const o of r.offers) console.log(`  offered seats ${o.seatNames.join(', ')} to passenger ${o.passengerId} (SMS queued)`)
      console.log(`${r.offers.length} waitlist offer(s) made.`)
    }
    return 0
  } catch (err) {
    if (err instanceof AddSeatsError) {
      console.error(err.message)
      return 1
    }
    throw err
  }
}
