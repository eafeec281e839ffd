/**
 * The operator's command for a trip that does not run as sold (trip-changes.ts):
 *
 *   npm run trip -- cancel <tripId> --reason "<text>" [--reason-bn "<Bengali text>"] [--dry-run]
 *   npm run trip -- move <tripId> --to-coach <coachCode> [--seat-map A1=B2,A2=B3] [--dry-run]
 *   npm run trip -- refunds | refund-retry | refund-done | reconcile   refunds the operator finishes (refund-command.ts)
 *   npm run trip -- rush mark | unmark | list   rush dates sold through the waiting room (rush-command.ts)
 *   npm run trip -- add-seats <tripId> --layout <layoutCode>   a bigger coach, its new seats offered to the waitlist (add-seats-command.ts)
 *
 * It opens the server's database (DATABASE_URL, or DATA_DIR while the server is stopped:
 * an embedded database takes one process at a time). Run again after a failure or a kill:
 * passengers already handled are not refunded or told again.
 * Exit status: 0 done, 1 refused or failed, 2 usage.
 */
import { pathToFileURL } from 'node:url'
import { runCommandOnDb, type Db } from '../db/db.ts'
import { createDeps } from '../deps.ts'
import { toDhakaIso } from '../lib/time.ts'
import { refundsToCard } from '../bookings/refunds.ts'
import { isRefundCommand, parseRefundCommand, type RefundCommand, refundUsage, runRefundCommand } from './refund-command.ts'
import { type AddSeatsCommand, addSeatsUsage, parseAddSeatsCommand, runAddSeatsCommand } from './add-seats-command.ts'
import { parseRushCommand, type RushCommand, runRushCommand, rushUsage } from './rush-command.ts'
import { cancelTrip, moveTrip, TripChangeError, type ChangeReport } from '../bookings/trip-changes.ts'
import type { TripReason } from '../delivery/ticket-messages.ts'

const usage = [
  'usage: npm run trip -- cancel <tripId> --reason "<text>" [--reason-bn "<Bengali text>"] [--dry-run]',
  '       npm run trip -- move <tripId> --to-coach <coachCode> [--seat-map A1=B2,A2=B3] [--dry-run]',
  ...refundUsage,
  ...rushUsage,
  ...addSeatsUsage,
].join('\n')

type Command =
  | { kind: 'cancel'; tripId: number; reason: TripReason; dryRun: boolean }
  | { kind: 'move'; tripId: number; toCoach: string; seatMap: Record<string, string>; dryRun: boolean }
  | RefundCommand
  | RushCommand
  | AddSeatsCommand

/** The command in `args`, or a message saying what is wrong with them. */
export function parseTripCommand(args: string[]): Command | string {
  const [kind, id, ...rest] = args
  if (isRefundCommand(kind)) return parseRefundCommand(args, usage)
  if (kind === 'rush') return parseRushCommand(args.slice(1), usage)
  if (kind === 'add-seats') return parseAddSeatsCommand(args.slice(1), usage)
  const tripId = Number(id)
  if ((kind !== 'cancel' && kind !== 'move') || !id || !/^\d+$/.test(id) || !Number.isSafeInteger(tripId) || tripId < 1) return usage
  const flags = new Map<string, string>()
  let dryRun = false
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!
    if (a === '--dry-run') dryRun = true
    else if (['--reason', '--reason-bn', '--to-coach', '--seat-map'].includes(a) && rest[i + 1] !== undefined) flags.set(a, rest[++i]!)
    else return `unknown or incomplete option ${a}\n${usage}`
  }
  if (kind === 'cancel') {
    const reason = flags.get('--reason')?.trim()
    if (!reason || flags.has('--to-coach') || flags.has('--seat-map')) return `cancel needs --reason "<text>" and nothing else\n${usage}`
    const bn = flags.get('--reason-bn')?.trim() || null
    if (reason.length > 200 || (bn?.length ?? 0) > 200) return 'the reason is longer than 200 characters: passengers read it in an SMS'
    return { kind, tripId, reason: { en: reason, bn }, dryRun }
  }
  const toCoach = flags.get('--to-coach')?.trim()
  if (!toCoach || flags.has('--reason') || flags.has('--reason-bn')) return `move needs --to-coach <coachCode>\n${usage}`
  const seatMap: Record<string, string> = {}
  for (const pair of (flags.get('--seat-map') ?? '').split(',').filter(Boolean)) {
    const m = /^\s*([^=\s]+)\s*=\s*([^=\s]+)\s*$/.exec(pair)
    if (!m) return `--seat-map takes OLD=NEW pairs separated by commas, not "${pair}"`
    seatMap[m[1]!] = m[2]!
  }
  return { kind, tripId, toCoach, seatMap, dryRun }
}

/** The report as lines for a terminal; `cardRefunds` false when card-paid tickets are refunded to the balance (REFUND_TO=balance). */
export function describeChange(cmd: Exclude<Command, RefundCommand | RushCommand | AddSeatsCommand>, r: ChangeReport, cardRefunds = true): string {
  const lines = [`Trip ${r.trip.id}: ${r.trip.route} on ${r.trip.tripDate}, coach ${r.trip.coachCode}, departing ${toDhakaIso(r.trip.departureAt)}.`]
  if (r.target) lines.push(`New coach ${r.target.coachCode} (trip ${r.target.id}), departing ${toDhakaIso(r.target.departureAt)}.`)
  const verb = cmd.dryRun ? 'would be' : 'were'
  if (r.affected.length === 0) lines.push(cmd.dryRun ? 'No passenger would be affected.' : 'No passenger was left to handle.')
  for (const a of r.affected) {
    const who = `${a.pnr ?? `booking ${a.id}`}  ${a.passengerName} ${a.passengerMobile}  seats ${a.seats.join(', ')}`
    if (cmd.kind === 'cancel')
      lines.push(`  ${who}  ${a.refund > 0 ? `refund Tk ${a.refund} (${a.paidBy === 'CARD' ? 'card' : 'balance'} payment)` : 'unpaid booking'}`)
    else if (a.newSeats) lines.push(`  ${who}  -> seats ${a.newSeats.join(', ')}`)
    else lines.push(`  ${who}  ${r.left.includes(a) ? 'NO ROOM on the new coach: left on this trip' : 'unpaid booking: cancelled'}`)
  }
  if (cmd.kind === 'cancel') {
    // A card refund is only queued here: the refund worker sends it to the gateway, which may refuse it.
    const toCard = cardRefunds ? r.affected.filter((a) => a.paidBy === 'CARD').reduce((sum, a) => sum + a.refund, 0) : 0
    lines.push(
      `${r.affected.length} reservation(s) ${verb} cancelled; Tk ${r.totalRefund - toCard} ${verb} refunded to balances, Tk ${toCard} ${verb} queued for refund to cards (npm run trip -- refunds shows them).`,
    )
  } else lines.push(`${r.affected.length - r.left.length} reservation(s) ${verb} moved or cancelled; ${r.left.length} left for lack of seats.`)
  if (r.left.length > 0) lines.push(`To refund those left: npm run trip -- cancel ${r.trip.id} --reason "<text>"`)
  return lines.join('\n')
}

async function run(db: Db, cmd: Command): Promise<number> {
  if (cmd.kind.startsWith('rush-')) return runRushCommand(db, cmd as RushCommand)
  const deps = createDeps(db)
  if (cmd.kind === 'add-seats') return runAddSeatsCommand(deps, cmd)
  if (cmd.kind !== 'cancel' && cmd.kind !== 'move') return runRefundCommand(db, deps, cmd as RefundCommand)
  try {
    const report =
      cmd.kind === 'cancel'
        ? await cancelTrip(deps, cmd.tripId, cmd.reason, { dryRun: cmd.dryRun })
        : await moveTrip(deps, cmd.tripId, cmd.toCoach, { seatMap: cmd.seatMap, dryRun: cmd.dryRun })
    console.log(describeChange(cmd, report, refundsToCard(deps)))
    return 0
  } catch (err) {
    if (err instanceof TripChangeError) {
      console.error(err.message)
      return 1
    }
    throw err
  }
}

async function main(): Promise<void> {
  const cmd = parseTripCommand(process.argv.slice(2))
  if (typeof cmd === 'string') {
    console.error(cmd)
    process.exit(2)
  }
  await runCommandOnDb((db) => run(db, cmd))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error('trip failed:', err instanceof Error ? err.message : err)
    process.exit(1)
  })
}
