/**
 * The operator's command for card payments held for review (SSLCommerz flagged
 * them with risk_level 1: paid, but nothing sold or credited yet):
 *
 *   node --import tsx server/commands/review-payments.ts list
 *   node --import tsx server/commands/review-payments.ts approve <paymentId>
 *   node --import tsx server/commands/review-payments.ts decline <paymentId> <reason…>
 *
 * It opens the server's database (DATABASE_URL, or DATA_DIR while the server is
 * stopped: an embedded database takes one process at a time). Approve sells the
 * booking (ticket sent) or credits the top-up; decline releases the seats and
 * refunds the card through SSLCommerz's refund API (by hand from its merchant panel
 * under REFUND_TO=balance).
 */
import { runCommandOnDb, type Db } from '../db/db.ts'
import { createDeps } from '../deps.ts'
import { approveReviewedPayment, declineReviewedPayment, findPayment, paymentsUnderReview } from '../bookings/payments.ts'
import { toDhakaIso } from '../lib/time.ts'

const usage = 'usage: review-payments.ts list | approve <paymentId> | decline <paymentId> <reason>'

type Command = { kind: 'list' } | { kind: 'approve'; id: string } | { kind: 'decline'; id: string; reason: string }

/** The command in `args`, or null when they do not make one. */
function parse(args: string[]): Command | null {
  const [command, id, ...rest] = args
  if (command === 'list' && !id) return { kind: 'list' }
  if (command === 'approve' && id && rest.length === 0) return { kind: 'approve', id }
  if (command === 'decline' && id && rest.length > 0) return { kind: 'decline', id, reason: rest.join(' ') }
  return null
}

async function run(db: Db, cmd: Command): Promise<number> {
  const deps = createDeps(db)
  if (cmd.kind === 'list') {
    const rows = await paymentsUnderReview(db)
    if (rows.length === 0) console.log('No payment is held for review.')
    for (const p of rows) {
      const [who] = await db.query<{ mobile: string; full_name: string }>('SELECT mobile, full_name FROM passengers WHERE id = $1', [p.passenger_id])
      const what = p.purpose === 'TOP_UP' ? 'top-up' : `booking ${p.reservation_id}`
      console.log(
        `${p.id}  ${what}  Tk ${p.amount}  ${who?.full_name ?? '?'} ${who?.mobile ?? ''}  paid ${toDhakaIso(p.decided_at ?? p.created_at)}  val_id ${p.gateway_val_id ?? '-'}`,
      )
    }
    return 0
  }
  const before = await findPayment(db, cmd.id).catch(() => null)
  if (!before) return fail(`No payment ${cmd.id}.`)
  if (before.status !== 'REVIEW') return fail(`Payment ${cmd.id} is not held for review (it is ${before.status}).`)
  const after = cmd.kind === 'approve' ? await approveReviewedPayment(deps, cmd.id) : await declineReviewedPayment(deps, cmd.id, cmd.reason)
  if (after.status === 'APPROVED') {
    console.log(
      after.refunded
        ? `Approved: the booking had ended, Tk ${after.amount} goes back to the passenger (card, or balance under REFUND_TO=balance).`
        : `Approved: ${after.purpose === 'TOP_UP' ? 'balance credited' : 'ticket sold and sent'}.`,
    )
  } else if (after.status === 'DECLINED') {
    console.log(
      after.refunded
        ? `Declined: nothing sold or credited, the seats are released; Tk ${after.amount} is refunded to where it was paid from: ${after.paid_with ?? 'card'}${after.paid_issuer ? ` (${after.paid_issuer})` : ''} (npm run trip -- refunds lists a refund that fails).`
        : 'Declined: nothing sold or credited, the seats are released. Refund it from the SSLCommerz merchant panel to where it was paid from (REFUND_TO=balance).',
    )
  } else {
    return fail(`Payment ${cmd.id} is now ${after.status}.`)
  }
  return 0
}

function fail(message: string): number {
  console.error(message)
  return 1
}

async function main(): Promise<void> {
  const cmd = parse(process.argv.slice(2))
  if (!cmd) process.exit(fail(usage))
  await runCommandOnDb((db) => run(db, cmd))
}

main().catch((err) => {
  console.error('review-payments failed:', err instanceof Error ? err.message : err)
  process.exit(1)
})
