/**
 * Card and mobile-banking payments through SSLCommerz (v4). A payment opens a
 * session whose tran_id is our payment id; the browser pays on GatewayPageURL
 * and comes back by POST to /gateway/sslcommerz/success|fail|cancel, and
 * SSLCommerz notifies /gateway/sslcommerz/ipn server to server. A posted form
 * without SSLCommerz's signature over its tran_id and val_id (verify_sign, made
 * with our store password) is dropped before anything is asked; a signed one is
 * still not trusted: every callback ends in `settle`, which asks the validation API (or
 * the transaction query by tran_id) and checks status, tran_id, amount, currency
 * and store against our payment row before anything is sold or credited
 * (applyFinding, exactly once across processes). risk_level 1 holds the payment
 * for review. When SSLCommerz cannot be reached the payment stays PENDING and is
 * settled by the next callback or by the reconciliation pass (`reconcile`).
 * SSLCommerz is asked about one payment at most once per ASK_INTERVAL_MS for its
 * signed notices (IPN, browser returns: `gateway_notice_asked_at`) and once more for
 * status checks (result pages, reconciliation: `gateway_asked_at`, which any ask sets),
 * however many arrive, in every process: a page read by anyone who knows the payment
 * id never holds back the gateway's own return.
 * Log lines carry payment ids redacted (redactPaymentId).
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import { AppError, type Deps } from '../../core.ts'
import { redactPaymentId as ref } from '../../http/redact.ts'
import type { PaymentRow } from '../payment-row.ts'
import { applyFinding, confirmPayment, findPayment, paymentIdPattern, resultUrl, type GatewayFinding } from '../payments.ts'
import { addTime, timeBetween } from '../../lib/time.ts'
import type { PaymentGateway, Refunder, RefundOutcome } from './gateway.ts'
import {
  GatewayUnavailableError,
  signatureOk,
  type SslRefund,
  sslcommerzApi,
  type SslTransaction,
  type SslcommerzApi,
  type SslcommerzSettings,
} from './sslcommerz-api.ts'

const FORM = 'application/x-www-form-urlencoded'
const valIdPattern = /^[A-Za-z0-9_.-]{1,100}$/
const PAID = new Set(['VALID', 'VALIDATED'])
const FAILED = new Set(['FAILED', 'CANCELLED', 'EXPIRED', 'UNATTEMPTED'])

/** Callback paths on this server (the operator allows the IPN one at SSLCommerz). */
export const sslcommerzPaths = {
  success: '/gateway/sslcommerz/success',
  fail: '/gateway/sslcommerz/fail',
  cancel: '/gateway/sslcommerz/cancel',
  ipn: '/gateway/sslcommerz/ipn',
} as const

/**
 * The passenger's choice as SSLCommerz's `multi_card_name` (the gateway list its page shows), from the
 * values its official libraries document (SSLCommerz-PHP / SSLCommerz-Laravel SslCommerzNotification):
 * `bkash` "Bkash Mobile Banking", `dbblmobilebanking` "DBBL Mobile Banking" (Rocket), `mobilebank`
 * "For all mobile banking". Nagad has no value of its own there, so it opens the mobile-banking list.
 * A card sends none: the full page, as before.
 */
export const multiCardName: Record<NonNullable<PaymentRow['asked_with']>, string | null> = {
  bkash: 'bkash',
  rocket: 'dbblmobilebanking',
  nagad: 'mobilebank',
  card: null,
}

/**
 * Where the money came from, from the validation answer: card_brand MOBILEBANKING is a mobile wallet,
 * named by its card_type ("BKASH-BKash", "NAGAD-Nagad", "DBBLMOBILEB-Dbbl Mobile Banking"); IB is internet
 * banking; any other brand (VISA, MASTER, AMEX…) a card. Null when the answer names none.
 */
export function paySourceOf(tx: Pick<SslTransaction, 'card_brand' | 'card_type'>): PaymentRow['paid_with'] {
  const brand = (tx.card_brand ?? '').trim().toUpperCase()
  const type = (tx.card_type ?? '').trim().toUpperCase()
  if (brand === 'MOBILEBANKING') {
    if (type.startsWith('BKASH')) return 'bkash'
    if (type.startsWith('NAGAD')) return 'nagad'
    if (type.startsWith('DBBLMOBILEB')) return 'rocket'
    return 'wallet'
  }
  if (brand === 'IB') return 'bank'
  return brand || type ? 'card' : null
}

/** SSLCommerz takes 10.00 to 500000.00 BDT per transaction. */
export const SSLCOMMERZ_MIN_AMOUNT = 10

/** A pending payment with no transaction at the gateway after this long is declined by the reconciliation pass. */
export const ABANDONED_AFTER_MS = 60 * 60_000
/** The reconciliation pass looks at pending payments at least this old, each at most once per this period. */
export const RECONCILE_AFTER_MS = 60_000
/** SSLCommerz is asked (validation, transaction query) about one payment at most once per this period. */
export const ASK_INTERVAL_MS = 3_000

/** Why `settle` runs: a paid notification (IPN, success return), the passenger gave up, or a periodic check. */
export type SettleReason =
  | { kind: 'notified'; valId: string | null }
  | { kind: 'gave-up'; why: string }
  | { kind: 'check'; declineUnpaidBefore: Date | null }

/** The SSLCommerz gateway, plus what the reconciliation pass and tests call directly. */
export interface SslcommerzGateway extends PaymentGateway {
  /** Brings one payment up to date with SSLCommerz; answers it afterwards. Never throws for a gateway outage. */
  settle(paymentId: string, reason: SettleReason): Promise<PaymentRow>
  /** One reconciliation pass over pending payments older than a minute; answers how many it looked at. */
  reconcile(): Promise<number>
  /** Refunds to the card through SSLCommerz's refund API. */
  refunder: Refunder
}

/** Builds the gateway for `settings`; `log` gets one line per decline, hold, outage or inconsistency. */
export function sslcommerzGateway(
  deps: Deps,
  settings: SslcommerzSettings,
  opts: { log?: (line: string) => void; api?: SslcommerzApi } = {},
): SslcommerzGateway {
  const api = opts.api ?? sslcommerzApi(settings)
  const write = opts.log ?? ((line: string) => console.warn(line))
  // Defence in depth: no line ever carries the store password, whatever an error message contains.
  const log = (line: string) => write(`[sslcommerz] ${settings.storePassword ? line.split(settings.storePassword).join('***') : line}`)

  async function sessionFields(p: PaymentRow): Promise<Record<string, string>> {
    const base = deps.config.publicUrl
    const [who] = await deps.db.query<{ full_name: string; mobile: string; email: string; city: string }>(
      'SELECT full_name, mobile, email, city FROM passengers WHERE id = $1',
      [p.passenger_id],
    )
    let name = who?.full_name ?? 'Passenger'
    let phone = who?.mobile ?? ''
    let email = who?.email ?? ''
    let product = 'Balance top-up'
    let items = 1
    if (p.reservation_id != null) {
      const [r] = await deps.db.query<{
        passenger_name: string
        passenger_mobile: string
        passenger_email: string | null
        origin: string
        destination: string
        seats: number
      }>(
        `SELECT x.passenger_name, x.passenger_mobile, x.passenger_email, o.name AS origin, d.name AS destination,
                (SELECT count(*)::int FROM reservation_seats s WHERE s.reservation_id = x.id) AS seats
           FROM reservations x JOIN trips t ON t.id = x.trip_id JOIN routes rt ON rt.id = t.route_id
           JOIN cities o ON o.code = rt.origin_code JOIN cities d ON d.code = rt.destination_code
          WHERE x.id = $1`,
        [p.reservation_id],
      )
      if (r) {
        name = r.passenger_name
        phone = r.passenger_mobile
        email = r.passenger_email || email
        product = `Bus ticket ${r.origin} to ${r.destination}, booking ${p.reservation_id}`
        items = Math.max(1, r.seats)
      }
    }
    return {
      total_amount: `${p.amount}.00`,
      currency: 'BDT',
      tran_id: p.id,
      success_url: base + sslcommerzPaths.success,
      fail_url: base + sslcommerzPaths.fail,
      cancel_url: base + sslcommerzPaths.cancel,
      ipn_url: base + sslcommerzPaths.ipn,
      product_name: product.slice(0, 255),
      product_category: p.purpose === 'TOP_UP' ? 'topup' : 'bus ticket',
      product_profile: 'non-physical-goods',
      shipping_method: 'NO',
      num_of_item: String(items),
      cus_name: name.slice(0, 50),
      cus_email: email.slice(0, 50),
      cus_phone: phone.slice(0, 20),
      cus_add1: who?.city?.slice(0, 50) ?? 'Bangladesh',
      cus_city: who?.city?.slice(0, 50) ?? 'Bangladesh',
      cus_country: 'Bangladesh',
      value_a: p.purpose,
      value_b: p.reservation_id != null ? String(p.reservation_id) : '',
      ...(p.asked_with && multiCardName[p.asked_with] ? { multi_card_name: multiCardName[p.asked_with]! } : {}),
    }
  }

  /** What the gateway's transaction says about our payment row: a finding, with the disagreements spelled out. */
  function judge(p: PaymentRow, tx: SslTransaction): GatewayFinding {
    const problems: string[] = []
    if (tx.tran_id !== p.id) problems.push(`tran_id ${tx.tran_id ? ref(tx.tran_id) : 'none'} is not this payment`)
    if (cents(tx.amount) !== p.amount * 100) problems.push(`amount ${JSON.stringify(tx.amount ?? null)}, expected ${p.amount}.00`)
    const currencies = [tx.currency, tx.currency_type].filter((c) => c !== undefined && c !== null && c !== '')
    if (currencies.length === 0) problems.push('no currency')
    for (const c of currencies) if (c !== 'BDT') problems.push(`currency ${JSON.stringify(c)}, expected BDT`)
    if (tx.currency_amount !== undefined && tx.currency_amount !== '' && cents(tx.currency_amount) !== p.amount * 100) {
      problems.push(`currency_amount ${JSON.stringify(tx.currency_amount)}, expected ${p.amount}.00`)
    }
    if (tx.store_id !== undefined && tx.store_id !== '' && tx.store_id !== settings.storeId)
      problems.push(`store_id ${JSON.stringify(tx.store_id)} is not ours`)
    const valId = tx.val_id ?? ''
    const gatewayStatus = tx.status ?? ''
    if (problems.length > 0)
      return { outcome: 'declined', reason: `validation disagrees: ${problems.join('; ')}`, valId: valId || null, gatewayStatus }
    const risk = tx.risk_level === undefined || tx.risk_level === '' ? 0 : Number(tx.risk_level)
    // Anything but an explicit 0 (safe) is held: the documented values are 0 and 1.
    const text = (v: string | undefined) => (typeof v === 'string' && v ? v.slice(0, 100) : null)
    return {
      outcome: 'paid',
      valId,
      gatewayStatus,
      riskLevel: risk === 0 ? 0 : 1,
      bankTranId: text(tx.bank_tran_id),
      gatewayAmount: text(tx.amount),
      storeAmount: text(tx.store_amount),
      paidWith: paySourceOf(tx),
      paidIssuer: text(tx.card_issuer),
    }
  }

  async function apply(p: PaymentRow, tx: SslTransaction): Promise<PaymentRow> {
    const finding = judge(p, tx)
    const after = await applyFinding(deps, p.id, finding)
    if (finding.outcome === 'declined' && p.status === 'PENDING' && after.status === 'DECLINED')
      log(`payment ${ref(p.id)} declined: ${finding.reason}`)
    else if (after.status === 'REVIEW' && p.status !== 'REVIEW')
      log(`payment ${ref(p.id)} held for review: risk_level ${String(tx.risk_level)} (${tx.risk_title ?? 'no title'})`)
    else if (finding.outcome === 'paid' && p.status === 'DECLINED' && after.status === 'APPROVED') {
      log(`payment ${ref(p.id)} was declined here but SSLCommerz took it (val_id ${finding.valId}): applied now`)
    }
    return after
  }

  // Settles running in this process, by kind (notice or check) and payment: one arriving meanwhile waits for that answer.
  const settling = new Map<string, Promise<PaymentRow>>()

  /**
   * Claims the right to ask SSLCommerz about `id` now: false when someone (any process) asked within
   * ASK_INTERVAL_MS. A notice (IPN, browser return: signed by SSLCommerz) waits only for other notices,
   * so a status check by a page, whoever reads it, never makes the real return answer "pending".
   */
  async function claimAsk(id: string, notice: boolean): Promise<boolean> {
    const now = deps.now()
    const column = notice ? 'gateway_notice_asked_at' : 'gateway_asked_at'
    const won = await deps.db.query(
      `UPDATE payments SET gateway_asked_at = $2${notice ? ', gateway_notice_asked_at = $2' : ''}
        WHERE id = $1 AND (${column} IS NULL OR ${column} <= $3) RETURNING id`,
      [id, now, addTime(now, { milliseconds: -ASK_INTERVAL_MS })],
    )
    return won.length === 1
  }

  async function settle(paymentId: string, reason: SettleReason): Promise<PaymentRow> {
    // Notices and checks apart: a notice never waits for a check's answer, which may predate the payment.
    const key = `${reason.kind === 'check' ? 'check' : 'notice'}:${paymentId}`
    const running = settling.get(key)
    if (running) {
      await running.catch(() => undefined)
      return findPayment(deps.db, paymentId)
    }
    const task = settleNow(paymentId, reason)
    settling.set(key, task)
    try {
      return await task
    } finally {
      settling.delete(key)
    }
  }

  async function settleNow(paymentId: string, reason: SettleReason): Promise<PaymentRow> {
    const p = await findPayment(deps.db, paymentId)
    if (p.provider !== 'sslcommerz') return p
    if (p.status === 'APPROVED') {
      if (!p.confirmed_at) await confirmPayment(deps, p.id)
      return findPayment(deps.db, p.id)
    }
    // Final: held for review, decided by an operator, or already applied.
    if (p.status === 'REVIEW' || p.reviewed_at || p.confirmed_at) return p
    // A declined payment is looked at again only when SSLCommerz says it was paid.
    if (p.status === 'DECLINED' && reason.kind !== 'notified') return p
    // Asked a moment ago (another callback, page or process): that answer stands, the store is not asked again.
    if (!(await claimAsk(p.id, reason.kind !== 'check'))) return p
    try {
      if (reason.kind === 'notified' && reason.valId) {
        const tx = await api.validate(reason.valId)
        if (PAID.has(tx.status ?? '')) {
          // A real payment of another transaction says nothing about this one: never applied here, never declines it.
          if (tx.tran_id === p.id) return await apply(p, tx)
          log(`payment ${ref(p.id)}: val_id ${reason.valId} is a payment of another transaction, ignored`)
        }
        // An unknown or unpaid val_id says nothing about this payment: ask about the transaction itself.
      }
      const txs = (await api.queryByTranId(p.id)).filter((t) => t.tran_id === undefined || t.tran_id === p.id)
      const paid = txs.find((t) => PAID.has(t.status ?? '') && t.val_id && valIdPattern.test(t.val_id))
      if (paid) {
        const tx = await api.validate(paid.val_id!)
        if (PAID.has(tx.status ?? '')) return await apply(p, tx)
        log(`payment ${ref(p.id)}: the transaction query lists val_id ${paid.val_id} as ${paid.status} but its validation says ${String(tx.status)}`)
        return p
      }
      if (p.status !== 'PENDING') return p
      const statuses = [...new Set(txs.map((t) => t.status ?? '?'))].join(', ') || 'none'
      // Declined only on the gateway's own answer: it lists the transaction as failed, or nothing an hour on.
      const failedThere = txs.some((t) => FAILED.has(t.status ?? ''))
      let why: string | null = null
      if (reason.kind === 'gave-up' && failedThere) why = `${reason.why} (transactions at the gateway: ${statuses})`
      else if (reason.kind === 'notified' && failedThere) why = `not paid at the gateway (transactions: ${statuses})`
      else if (reason.kind === 'check' && reason.declineUnpaidBefore && p.created_at < reason.declineUnpaidBefore) {
        why = `no payment at the gateway ${Math.round(ABANDONED_AFTER_MS / 60_000)} minutes after it was opened (transactions: ${statuses})`
      }
      if (!why) return p
      const after = await applyFinding(deps, p.id, { outcome: 'declined', reason: why })
      if (after.status === 'DECLINED') log(`payment ${ref(p.id)} declined: ${why}`)
      return after
    } catch (err) {
      if (!(err instanceof GatewayUnavailableError)) throw err
      log(`payment ${ref(p.id)} stays pending: ${err.message}`)
      return findPayment(deps.db, p.id)
    }
  }

  async function reconcile(): Promise<number> {
    const now = deps.now()
    const due = addTime(now, { milliseconds: -RECONCILE_AFTER_MS })
    // Claimed with SKIP LOCKED and stamped, so processes sharing the database split the work.
    const rows = await deps.db.query<{ id: string }>(
      `UPDATE payments SET checked_at = $2 WHERE id IN (
         SELECT id FROM payments
          WHERE status = 'PENDING' AND provider = 'sslcommerz' AND created_at <= $1 AND (checked_at IS NULL OR checked_at <= $1)
          ORDER BY created_at LIMIT 50 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [due, now],
    )
    const declineUnpaidBefore = addTime(now, { milliseconds: -ABANDONED_AFTER_MS })
    for (const { id } of rows) await settle(id, { kind: 'check', declineUnpaidBefore })
    return rows.length
  }

  async function browserReturn(kind: 'success' | 'fail' | 'cancel', body: Record<string, string>, reply: FastifyReply): Promise<FastifyReply> {
    const id = formField(body, 'tran_id', paymentIdPattern)
    const p = id ? await findOrNull(id) : null
    if (p?.provider !== 'sslcommerz') {
      return reply.code(303).header('location', `${deps.config.appUrl}/reservation/failure`).header('cache-control', 'no-store').send()
    }
    if (!signed(body)) {
      // Not SSLCommerz's form: nothing is asked or changed; the page shows the payment as it is.
      log(`${kind} return for payment ${ref(p.id)} without a valid SSLCommerz signature: dropped`)
      return reply.code(303).header('location', resultUrl(p, deps.config.appUrl)).header('cache-control', 'no-store').send()
    }
    const after =
      kind === 'success'
        ? await settle(p.id, { kind: 'notified', valId: formField(body, 'val_id', valIdPattern) })
        : await settle(p.id, { kind: 'gave-up', why: kind === 'fail' ? 'failed at the gateway' : 'cancelled at the gateway' })
    return reply.code(303).header('location', resultUrl(after, deps.config.appUrl)).header('cache-control', 'no-store').send()
  }

  /** SSLCommerz's signature over the posted form, covering its tran_id and, when posted, its val_id. */
  function signed(body: Record<string, string>): boolean {
    return signatureOk(body, settings.storePassword, body.val_id === undefined ? ['tran_id'] : ['tran_id', 'val_id'])
  }

  async function findOrNull(id: string): Promise<PaymentRow | null> {
    try {
      return await findPayment(deps.db, id)
    } catch {
      return null
    }
  }

  /** The bank_tran_id of a paid payment: stored at validation, else asked of the transaction query (payments from before it was stored). */
  async function bankTranIdOf(p: PaymentRow): Promise<string | null> {
    if (p.bank_tran_id) return p.bank_tran_id
    const txs = await api.queryByTranId(p.id)
    const paid = txs.find((t) => t.tran_id === p.id && PAID.has(t.status ?? '') && t.bank_tran_id)
    if (!paid) return null
    await deps.db.query('UPDATE payments SET bank_tran_id = $2 WHERE id = $1 AND bank_tran_id IS NULL', [p.id, paid.bank_tran_id])
    return paid.bank_tran_id!
  }

  const refunder: Refunder = {
    async refund(req) {
      const bankTranId = await bankTranIdOf(req.payment)
      if (!bankTranId) return { state: 'refused', reason: 'SSLCommerz lists no paid transaction (bank_tran_id) for this payment', final: true }
      const answer = await api.initiateRefund({
        bankTranId,
        refundTransId: req.refundId,
        amount: req.amount,
        remarks: req.remarks,
        refeId: req.payment.id,
      })
      // success: accepted now; processing: already accepted (this refund_trans_id was sent before).
      if ((answer.status === 'success' || answer.status === 'processing') && answer.refundRefId)
        return { state: 'sent', refundRefId: answer.refundRefId }
      const why = `refund refused by SSLCommerz: ${answer.status || 'no status'}${answer.errorReason ? ` (${answer.errorReason})` : ''}`
      log(`payment ${ref(req.payment.id)}: ${why}`)
      return { state: 'refused', reason: why, final: false }
    },
    async status(refundRefId) {
      return refundState(await api.refundQuery(refundRefId), refundRefId)
    },
  }

  return {
    provider: 'sslcommerz',
    minAmount: SSLCOMMERZ_MIN_AMOUNT,
    settle,
    reconcile,
    refunder,

    // A session still being opened, or opened: the same page. One whose opening died with its
    // process (no page long after) is replaced, or the booking could never be paid by card.
    canReuse: (payment, now) => !!payment.gateway_url || timeBetween(payment.created_at, now, 'milliseconds') < settings.timeoutMs + 5000,

    async open(payment, ctx) {
      if (ctx.reused) return { redirectUrl: await waitForPage(deps, payment.id, settings.timeoutMs + 2000) }
      let session: { gatewayUrl: string; sessionKey: string | null }
      try {
        session = await api.createSession(await sessionFields(payment))
      } catch (err) {
        const why = `the session was not opened: ${(err as Error).message}`
        await applyFinding(deps, payment.id, { outcome: 'declined', reason: why })
        log(`payment ${ref(payment.id)} declined: ${why}`)
        throw new AppError('PAYMENT_GATEWAY_UNAVAILABLE')
      }
      await deps.db.query('UPDATE payments SET gateway_url = $2, gateway_session = $3 WHERE id = $1', [
        payment.id,
        session.gatewayUrl,
        session.sessionKey,
      ])
      return { redirectUrl: session.gatewayUrl }
    },

    register(app: FastifyInstance) {
      // Form posts only here (the browser returns and the IPN); the rest of the API takes JSON.
      app.register(async (scope) => {
        if (!scope.hasContentTypeParser(FORM)) {
          scope.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
            done(null, Object.fromEntries(new URLSearchParams(body as string)))
          })
        }
        type Post = { Body: Record<string, string> | undefined }
        for (const kind of ['success', 'fail', 'cancel'] as const) {
          scope.post<Post>(sslcommerzPaths[kind], async (req, reply) => browserReturn(kind, formBody(req.body), reply))
        }
        scope.post<Post>(sslcommerzPaths.ipn, async (req, reply) => {
          const body = formBody(req.body)
          const posted = typeof body.tran_id === 'string' ? ref(body.tran_id.slice(0, 100)) : 'none'
          // Checked before anything else: a forged IPN costs one hash, never a call to SSLCommerz.
          if (!signed(body)) {
            log(`IPN for payment ${posted} without a valid SSLCommerz signature: dropped`)
            return reply.code(403).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Invalid signature')
          }
          const id = formField(body, 'tran_id', paymentIdPattern)
          const p = id ? await findOrNull(id) : null
          if (p?.provider !== 'sslcommerz') {
            log(`IPN for an unknown payment ${posted} ignored`)
          } else {
            await settle(p.id, { kind: 'notified', valId: formField(body, 'val_id', valIdPattern) })
          }
          return reply.code(200).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('OK')
        })
      })
    },

    async refresh(payment) {
      if (payment.status === 'APPROVED' || payment.status === 'PENDING') await settle(payment.id, { kind: 'check', declineUnpaidBefore: null })
    },
  }
}

/** Runs `reconcile` now and every minute; answers a stop function. */
export function startReconciliation(gateway: SslcommerzGateway, log: (line: string) => void = (l) => console.error(l)): () => void {
  let running = false
  const run = async () => {
    if (running) return
    running = true
    try {
      await gateway.reconcile()
    } catch (err) {
      log(`[sslcommerz] reconciliation failed: ${(err as Error).message}`)
    } finally {
      running = false
    }
  }
  void run()
  const timer = setInterval(() => void run(), RECONCILE_AFTER_MS)
  timer.unref()
  return () => clearInterval(timer)
}

/** A refund query's answer: refunded (with refunded_on, Dhaka time), processing, or cancelled / failed for good. */
function refundState(a: SslRefund, refundRefId: string): RefundOutcome {
  if (a.status === 'refunded' || a.status === 'success') {
    const on = a.refundedOn && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(a.refundedOn) ? new Date(`${a.refundedOn.replace(' ', 'T')}+06:00`) : null
    return { state: 'done', refundRefId: a.refundRefId ?? refundRefId, at: on && !Number.isNaN(on.getTime()) ? on : null }
  }
  if (a.status === 'processing') return { state: 'processing' }
  return {
    state: 'refused',
    reason: `SSLCommerz: refund ${a.status || 'in an unknown state'}${a.errorReason ? ` (${a.errorReason})` : ''}`,
    final: true,
  }
}

/** Another request is opening this payment's session: its page, once stored. */
async function waitForPage(deps: Deps, id: string, withinMs: number): Promise<string> {
  const until = Date.now() + withinMs
  for (;;) {
    const p = await findPayment(deps.db, id)
    if (p.gateway_url) return p.gateway_url
    if (p.status !== 'PENDING' || Date.now() > until) throw new AppError('PAYMENT_GATEWAY_UNAVAILABLE')
    await new Promise((r) => setTimeout(r, 150))
  }
}

/** Amount in paisa from SSLCommerz's decimal text ("1200.00"), or NaN. */
function cents(v: string | undefined): number {
  if (typeof v !== 'string' || !/^\d{1,9}(\.\d{1,4})?$/.test(v.trim())) return NaN
  const [whole, frac = ''] = v.trim().split('.')
  const f = (frac + '0000').slice(0, 4)
  // Anything past the paisa must be zero: 1200.0001 is not 1200.00.
  if (Number(f.slice(2)) !== 0) return NaN
  return Number(whole) * 100 + Number(f.slice(0, 2))
}

function formBody(b: unknown): Record<string, string> {
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, string>) : {}
}

function formField(body: Record<string, string>, name: string, pattern: RegExp): string | null {
  const v = body[name]
  return typeof v === 'string' && pattern.test(v) ? v : null
}
