/**
 * The rush-date sub-commands of the operator's command (trip-command.ts, `npm run trip`), for
 * marking a date during a sale without a network import (server/queue/):
 *
 *   rush mark <yyyy-mm-dd> <FROM-TO> [--opens <instant>] [--rate <per minute> or auto] [--minutes <admission minutes>]
 *   (without --opens the queue opens at the sale hour of the route's trips that date)
 *   rush unmark <yyyy-mm-dd> <FROM-TO>
 *   rush list
 */
import type { Db } from '../db/db.ts'
import { isCalendarDate, isInstant } from '../../contract/values.ts'
import { toDhakaIso } from '../lib/time.ts'
import { listRushDates, markRushDate, type RushDate, saleHourOf, unmarkRushDate } from '../queue/rush-dates.ts'

/** The usage lines of the rush sub-commands. */
export const rushUsage = [
  '       npm run trip -- rush mark <yyyy-mm-dd> <FROM-TO> [--opens <e.g. 2026-03-20T08:00:00+06:00>] [--rate <per minute> or auto] [--minutes <n>]',
  '       npm run trip -- rush unmark <yyyy-mm-dd> <FROM-TO>',
  '       npm run trip -- rush list',
]

/** A rush sub-command. */
export type RushCommand =
  | { kind: 'rush-mark'; rush: RushDate }
  | { kind: 'rush-unmark'; rush: Pick<RushDate, 'tripDate' | 'originCode' | 'destinationCode'> }
  | { kind: 'rush-list' }

/** The rush sub-command in `args` (after "rush"), or a message saying what is wrong. */
export function parseRushCommand(args: string[], usage: string): RushCommand | string {
  const [verb, date, route, ...rest] = args
  if (verb === 'list') return args.length === 1 ? { kind: 'rush-list' } : usage
  if ((verb !== 'mark' && verb !== 'unmark') || !date || !route) return usage
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !isCalendarDate(date)) return `the travel date must be a calendar date yyyy-mm-dd, not "${date}"`
  const m = /^([A-Z]{3})-([A-Z]{3})$/.exec(route)
  if (!m) return `the route must be two city codes FROM-TO, e.g. DHK-CTG, not "${route}"`
  const key = { tripDate: date, originCode: m[1]!, destinationCode: m[2]! }
  if (verb === 'unmark') return rest.length === 0 ? { kind: 'rush-unmark', rush: key } : usage
  const flags = new Map<string, string>()
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!
    if (['--opens', '--rate', '--minutes'].includes(a) && rest[i + 1] !== undefined && !flags.has(a)) flags.set(a, rest[++i]!)
    else return `unknown, repeated or incomplete option ${a}\n${usage}`
  }
  const opens = flags.get('--opens')
  if (opens !== undefined && !isInstant(opens)) return `--opens takes a date and time with its offset, e.g. 2026-03-20T08:00:00+06:00\n${usage}`
  const whole = (flag: string, max: number): number | null | string => {
    const v = flags.get(flag)
    if (v === undefined) return null
    return /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= max ? Number(v) : `${flag} takes a whole number from 1 to ${max}, not "${v}"`
  }
  const rate = flags.get('--rate') === 'auto' ? 'auto' : whole('--rate', 100_000)
  const minutes = whole('--minutes', 240)
  if (typeof rate === 'string' && rate !== 'auto') return rate
  if (typeof minutes === 'string') return minutes
  return { kind: 'rush-mark', rush: { ...key, opensAt: opens === undefined ? null : new Date(opens), admitPerMinute: rate, admitMinutes: minutes } }
}

/** Runs a rush sub-command; answers the exit status (1: no such route or rush date). */
export async function runRushCommand(db: Db, cmd: RushCommand): Promise<number> {
  if (cmd.kind === 'rush-list') {
    const all = await listRushDates(db)
    if (all.length === 0) console.log('No rush dates.')
    for (const r of all) {
      const rate = r.admitPerMinute === null ? 'default rate' : r.admitPerMinute === 'auto' ? 'rate from seats free' : `${r.admitPerMinute}/minute`
      const minutes = r.admitMinutes === null ? 'default minutes' : `${r.admitMinutes} minutes each`
      console.log(
        `${r.tripDate} ${r.originCode}-${r.destinationCode}  opens ${toDhakaIso(r.opensAt)}  ${rate}, ${minutes}  (${r.source})  ${r.waiting} waiting, ${r.admitted} admitted`,
      )
    }
    return 0
  }
  const { rush } = cmd
  const name = `${rush.originCode}-${rush.destinationCode} on ${rush.tripDate}`
  if (cmd.kind === 'rush-unmark') {
    if (!(await unmarkRushDate(db, rush))) {
      console.error(`${name} is no rush date.`)
      return 1
    }
    console.log(`${name} is no rush date any more: its queue is gone and seats are sold to anyone.`)
    return 0
  }
  const [route] = await db.query('SELECT 1 FROM routes WHERE origin_code = $1 AND destination_code = $2', [rush.originCode, rush.destinationCode])
  if (!route) {
    console.error(`There is no route ${rush.originCode}-${rush.destinationCode}; nothing was changed.`)
    return 1
  }
  const opensAt = cmd.rush.opensAt ?? (await saleHourOf(db, rush))
  if (!opensAt) {
    console.error(`${name} has no sale hour (saleOpens in the network file): give --opens; nothing was changed.`)
    return 1
  }
  const added = await markRushDate(db, { ...cmd.rush, opensAt }, 'command')
  console.log(`${name} ${added ? 'is now a rush date' : 'was changed'}: the queue opens ${toDhakaIso(opensAt)}; places already taken are kept.`)
  return 0
}
