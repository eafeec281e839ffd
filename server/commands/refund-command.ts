/**
 * The refund sub-commands of the operator's command (trip-command.ts, `npm run trip`):
 *
 *   refunds [--status FAILED|PENDING|SENT|DONE]            every refund by status, with its age
 *   refund-retry <refundId> --by "<name>"                  a FAILED refund sent back to the refund worker
 *   refund-done <refundId> --ref "<reference>" --by "<name>"  a FAILED refund recorded as refunded by hand
 *   reconcile [--date yyyy-mm-dd]                          a Dhaka day's card payments and refunds against SSLCommerz
 */
import type { Db } from '../db/db.ts'
import type { Deps } from '../core.ts'
import { addDays, dhakaDate, timeBetween, toDhakaIso } from '../lib/time.ts'
import { sslcommerzApi } from '../bookings/gateways/sslcommerz-api.ts'
import { reconcileDay, type Reconciliation } from '../bookings/reconcile-day.ts'
import type { PaySource } from '../../contract/schemas.ts'
import { enPlace } from '../delivery/ticket-messages.ts'
import { allRefunds, recordManualRefund, type RefundRow, retryRefund } from '../bookings/refunds.ts'

/** The usage lines of the refund sub-commands. */
export const refundUsage = [
  '       npm run trip -- refunds [--status FAILED|PENDING|SENT|DONE]',
  '       npm run trip -- refund-retry <refundId> --by "<your name>"',
  '       npm run trip -- refund-done <refundId> --ref "<reference of the refund done by hand>" --by "<your name>"',
  '       npm run trip -- reconcile [--date yyyy-mm-dd]   (default: yesterday, Asia/Dhaka)',
]

const STATUSES = ['FAILED', 'PENDING', 'SENT', 'DONE'] as const

/** A refund sub-command. */
export type RefundCommand =
  | { kind: 'refunds'; status: RefundRow['status'] | null }
  | { kind: 'refund-retry'; refundId: string; by: string }
  | { kind: 'refund-done'; refundId: string; reference: string; by: string }
  | { kind: 'reconcile'; date: string | null }

/** Whether `kind` names a refund sub-command. */
export const isRefundCommand = (kind: string | undefined) => ['refunds', 'refund-retry', 'refund-done', 'reconcile'].includes(kind ?? '')

/** The refund sub-command in `args`, or a message saying what is wrong (`usage` appended where it helps). */
export function parseRefundCommand(args: string[], usage: string): RefundCommand | string {
  const [kind, ...rest] = args
  const positional: string[] = []
  const flags = new Map<string, string>()
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!
    if (['--status', '--by', '--ref', '--date'].includes(a) && rest[i + 1] !== undefined && !flags.has(a)) flags.set(a, rest[++i]!.trim())
    else if (!a.startsWith('--')) positional.push(a)
    else return `unknown, repeated or incomplete option ${a}\n${usage}`
  }
  const only = (...names: string[]) => [...flags.keys()].every((k) => names.includes(k))
  if (kind === 'refunds') {
    const status = flags.get('--status')?.toUpperCase() ?? null
    if (positional.length || !only('--status') || (status !== null && !STATUSES.includes(status as never))) return usage
    return { kind, status: status as RefundRow['status'] | null }
  }
  if (kind === 'reconcile') {
    const date = flags.get('--date') ?? null
    if (positional.length || !only('--date')) return usage
    if (date !== null && !validDate(date)) return `--date takes a calendar date yyyy-mm-dd, not "${date}"`
    return { kind, date }
  }
  const [refundId] = positional
  if (positional.length !== 1 || !/^rf_[A-Za-z0-9_-]{1,40}$/.test(refundId!))
    return `${kind} needs one refund id (rf_…, from npm run trip -- refunds)\n${usage}`
  const by = flags.get('--by')
  if (!by || by.length > 100) return `${kind} needs --by "<your name>" (at most 100 characters): it is stored with the refund\n${usage}`
  if (kind === 'refund-retry') return only('--by') ? { kind, refundId: refundId!, by } : usage
  const reference = flags.get('--ref')
  if (!reference || reference.length > 200 || !only('--by', '--ref'))
    return `refund-done needs --ref "<reference>" (the bank's or the gateway panel's, at most 200 characters)\n${usage}`
  return { kind: 'refund-done', refundId: refundId!, reference, by }
}

function validDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false
  try {
    return addDays(date, 0) === date
  } catch {
    return false
  }
}

/** How long ago `from` was, for a terminal: "3d 4h", "5h 12m", "7m". */
export function age(from: Date, now: Date): string {
  const minutes = Math.max(0, Math.floor(timeBetween(from, now, 'minutes')))
  const d = Math.floor(minutes / 1440)
  const h = Math.floor((minutes % 1440) / 60)
  const m = minutes % 60
  return d > 0 ? `${d}d ${h}h` : h > 0 ? `${h}h ${m}m` : `${m}m`
}

const headings: Record<RefundRow['status'], string> = {
  FAILED: 'FAILED: refused by the gateway after its tries. Refund by hand and record it (refund-done), or send it again (refund-retry)',
  PENDING: 'PENDING: not yet accepted by the gateway; the refund worker sends it (tries so far shown)',
  SENT: 'SENT: accepted by the gateway, processing there; the worker asks its state (age since accepted shown)',
  DONE: 'DONE: refunded',
}

/** Every refund of `rows` by status, with its age, as lines for a terminal. */
export function describeAllRefunds(
  rows: (RefundRow & { pnr: string | null; paid_with?: PaySource | null; paid_issuer?: string | null })[],
  now: Date,
): string {
  if (rows.length === 0) return 'No refunds.'
  const count = (s: RefundRow['status']) => rows.filter((f) => f.status === s).length
  const lines = [`${rows.length} refund(s): ${STATUSES.map((s) => `${count(s)} ${s}`).join(', ')}.`]
  for (const status of STATUSES) {
    const group = rows.filter((f) => f.status === status)
    if (group.length === 0) continue
    lines.push(headings[status])
    for (const f of group) {
      const what = f.pnr ? `PNR ${f.pnr}` : f.reservation_id != null ? `booking ${f.reservation_id}` : 'no booking'
      const detail =
        status === 'DONE'
          ? `refunded ${f.done_at ? toDhakaIso(f.done_at) : ''}${f.manual_ref ? ` by hand, ref ${f.manual_ref}, by ${f.manual_by}` : ''}`
          : status === 'SENT'
            ? `processing for ${age(f.sent_at ?? f.created_at, now)}, gateway ref ${f.refund_ref_id ?? 'none'}`
            : `${f.attempts} tries${f.retried_by ? `, retried by ${f.retried_by}` : ''}, last error: ${f.last_error ?? 'none'}`
      // Where the money goes back: a refund by hand (refund-done) must reach the same wallet or card.
      const to = `to ${enPlace[f.paid_with ?? 'card']}${f.paid_issuer ? ` (${f.paid_issuer})` : ''}`
      lines.push(
        `  ${f.id}  age ${age(f.created_at, now)}  ${what}  Tk ${f.amount}  ${f.provider}  ${to}  ${f.reason}  payment ${f.payment_id}  ${detail}`,
      )
    }
  }
  return lines.join('\n')
}

/** A reconciliation as lines for a terminal. */
export function describeReconciliation(r: Reconciliation): string {
  const head = `Reconciliation of ${r.date} (Asia/Dhaka) with SSLCommerz: ${r.payments} card payment(s) and ${r.refunds} refund(s) checked; ${r.differences.length} difference(s).`
  return [head, ...r.differences.map((d) => `  ${d.kind} ${d.id}  Tk ${d.amount}  here: ${d.ours}  SSLCommerz: ${d.gateway}  ${d.note}`)].join('\n')
}

/** Runs refund sub-command `cmd`; answers the exit status (0 done, 1 refused, failed or differences found). */
export async function runRefundCommand(db: Db, deps: Deps, cmd: RefundCommand): Promise<number> {
  const now = deps.now()
  if (cmd.kind === 'refunds') {
    const rows = await allRefunds(db)
    console.log(describeAllRefunds(cmd.status ? rows.filter((f) => f.status === cmd.status) : rows, now))
    return 0
  }
  if (cmd.kind === 'reconcile') {
    const pay = deps.config.payment
    if (pay.provider !== 'sslcommerz') {
      console.error('reconcile asks SSLCommerz: set PAYMENT_PROVIDER=sslcommerz and its SSLCOMMERZ_* settings as for the server')
      return 1
    }
    const report = await reconcileDay(db, sslcommerzApi(pay), cmd.date ?? addDays(dhakaDate(now), -1))
    console.log(describeReconciliation(report))
    return report.differences.length === 0 ? 0 : 1
  }
  const done =
    cmd.kind === 'refund-retry'
      ? await retryRefund(db, cmd.refundId, cmd.by, now)
      : await recordManualRefund(db, cmd.refundId, { reference: cmd.reference, by: cmd.by, now })
  if (done === 'NOT_FOUND') {
    console.error(`No refund ${cmd.refundId} (see npm run trip -- refunds).`)
    return 1
  }
  if (done === 'NOT_FAILED') {
    console.error(`Refund ${cmd.refundId} is not FAILED: only a failed refund is retried or recorded by hand (see npm run trip -- refunds).`)
    return 1
  }
  console.log(
    cmd.kind === 'refund-retry'
      ? `Refund ${done.id} (Tk ${done.amount}) is queued again: the server's refund worker sends it within REFUND_RETRY_SECONDS (at most a minute).`
      : `Refund ${done.id} (Tk ${done.amount}) recorded as refunded by hand: ref ${done.manual_ref}, by ${done.manual_by}.`,
  )
  return 0
}
