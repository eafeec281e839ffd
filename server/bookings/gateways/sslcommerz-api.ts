/**
 * The three SSLCommerz v4 endpoints we call, with `fetch` and a timeout:
 * the session API (`POST /gwprocess/v4/api.php`), the order validation API
 * (`GET /validator/api/validationserverAPI.php`) and the transaction query by
 * tran_id (`GET /validator/api/merchantTransIDvalidationAPI.php`), whose endpoint also takes
 * the refund request (with bank_tran_id) and the refund status query (with refund_ref_id).
 *
 * The official `sslcommerz-lts` package is not used: its constructor only takes
 * `is_live` and picks the sandbox or the live host from it, so the API base URL
 * cannot be configured (nor pointed at a local stand-in), and it sets no timeout.
 */
import crypto from 'node:crypto'

/** SSLCOMMERZ_* settings. */
export interface SslcommerzSettings {
  storeId: string
  storePassword: string
  /** Base URL, e.g. https://sandbox.sslcommerz.com or https://securepay.sslcommerz.com (no trailing slash). */
  apiUrl: string
  /** Longest wait for one call. */
  timeoutMs: number
}

/** The gateway could not answer (timeout, network, 5xx, not JSON, APIConnect not DONE): try again later. */
export class GatewayUnavailableError extends Error {}

/** The session API answered FAILED (bad credentials or data): `failedreason` is the message. */
export class SessionRefusedError extends Error {}

/** A transaction as the validation and query APIs describe it (every value a string as sent). */
export interface SslTransaction {
  status?: string
  tran_id?: string
  val_id?: string
  amount?: string
  currency?: string
  currency_type?: string
  currency_amount?: string
  store_id?: string
  store_amount?: string
  risk_level?: string | number
  risk_title?: string
  bank_tran_id?: string
  /** How it was paid: "VISA-Dutch Bangla", "BKASH-BKash"…; card_brand VISA, MASTER, AMEX, MOBILEBANKING, IB…; card_issuer the bank or wallet. */
  card_type?: string
  card_brand?: string
  card_issuer?: string
  APIConnect?: string
  error?: string
}

/**
 * A refund as the refund API and the refund query describe it. Initiating answers status
 * success (accepted), processing (already initiated, e.g. the same refund_trans_id again) or
 * failed (refused, errorReason says why); the query answers refunded, processing or cancelled.
 */
export interface SslRefund {
  status: string
  bankTranId: string | null
  refundRefId: string | null
  errorReason: string
  /** refunded_on as SSLCommerz wrote it (Dhaka time, "2024-01-31 12:00:00"), when refunded. */
  refundedOn: string | null
}

/** What a refund request carries (amount in Tk, refundTransId our idempotency key). */
export interface RefundRequest {
  bankTranId: string
  refundTransId: string
  amount: number
  remarks: string
  refeId: string
}

/** The session fields we send (see SSLCommerz v4 "Create and Get Session"). */
export type SessionFields = Record<string, string>

/** An SSLCommerz client for one store. */
export interface SslcommerzApi {
  /** Opens a payment session; answers the page the browser goes to and the session key. */
  createSession(fields: SessionFields): Promise<{ gatewayUrl: string; sessionKey: string | null }>
  /** The order validation API for `valId` (status VALID, VALIDATED, INVALID_TRANSACTION, FAILED…). */
  validate(valId: string): Promise<SslTransaction>
  /** Every transaction the gateway holds for our `tranId` (empty when the passenger never paid). */
  queryByTranId(tranId: string): Promise<SslTransaction[]>
  /** Asks SSLCommerz to refund (part of) a payment to the card it came from. */
  initiateRefund(req: RefundRequest): Promise<SslRefund>
  /** The state of a refund SSLCommerz accepted (refunded, processing, cancelled). */
  refundQuery(refundRefId: string): Promise<SslRefund>
}

/** The client for `settings`. Error messages never contain the store password. */
export function sslcommerzApi(settings: SslcommerzSettings): SslcommerzApi {
  const credentials = { store_id: settings.storeId, store_passwd: settings.storePassword }

  async function call(
    path: string,
    init: { method: 'GET' | 'POST'; query?: Record<string, string>; form?: Record<string, string> },
  ): Promise<Record<string, unknown>> {
    const url = settings.apiUrl + path + (init.query ? '?' + new URLSearchParams(init.query).toString() : '')
    let res: Response
    try {
      res = await fetch(url, {
        method: init.method,
        headers: { accept: 'application/json', ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        body: init.form ? new URLSearchParams(init.form).toString() : undefined,
        signal: AbortSignal.timeout(settings.timeoutMs),
        redirect: 'error',
      })
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } }
      const why =
        e.name === 'TimeoutError' || e.name === 'AbortError'
          ? `no answer within ${settings.timeoutMs} ms`
          : `network error ${e.cause?.code ?? e.name}`
      throw new GatewayUnavailableError(`${path}: ${why}`)
    }
    let text: string
    try {
      text = await res.text()
    } catch {
      throw new GatewayUnavailableError(`${path}: the answer was cut off`)
    }
    if (!res.ok) throw new GatewayUnavailableError(`${path}: HTTP ${res.status}`)
    try {
      const body = JSON.parse(text) as unknown
      if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>
    } catch {
      // reported below
    }
    throw new GatewayUnavailableError(`${path}: the answer is not a JSON object`)
  }

  return {
    async createSession(fields) {
      const body = await call('/gwprocess/v4/api.php', { method: 'POST', form: { ...fields, ...credentials } })
      if (body.status !== 'SUCCESS') {
        const reason = typeof body.failedreason === 'string' && body.failedreason ? body.failedreason : `status ${String(body.status)}`
        throw new SessionRefusedError(reason.slice(0, 300))
      }
      const gatewayUrl = body.GatewayPageURL
      // The browser is sent there: only a real web address is acceptable.
      if (typeof gatewayUrl !== 'string' || !/^https?:\/\/[^\s]+$/i.test(gatewayUrl)) {
        throw new GatewayUnavailableError('/gwprocess/v4/api.php: SUCCESS without a GatewayPageURL')
      }
      return { gatewayUrl, sessionKey: typeof body.sessionkey === 'string' ? body.sessionkey : null }
    },

    async validate(valId) {
      const body = await call('/validator/api/validationserverAPI.php', {
        method: 'GET',
        query: { val_id: valId, ...credentials, v: '1', format: 'json' },
      })
      if (body.APIConnect !== undefined && body.APIConnect !== 'DONE') {
        throw new GatewayUnavailableError(`/validator/api/validationserverAPI.php: APIConnect ${String(body.APIConnect)}`)
      }
      return body as SslTransaction
    },

    async queryByTranId(tranId) {
      const body = await call('/validator/api/merchantTransIDvalidationAPI.php', {
        method: 'GET',
        query: { tran_id: tranId, ...credentials, v: '1', format: 'json' },
      })
      if (body.APIConnect !== 'DONE') {
        throw new GatewayUnavailableError(`/validator/api/merchantTransIDvalidationAPI.php: APIConnect ${String(body.APIConnect)}`)
      }
      return Array.isArray(body.element) ? (body.element.filter((e) => e && typeof e === 'object') as SslTransaction[]) : []
    },

    // The refund API, as SSLCommerz documents it (developer.sslcommerz.com/doc/v4, "Initiate the Refund")
    // and its libraries call it (sslcommerz-lts `initiateRefund`, SSLCommerz-PHP): a GET of
    // merchantTransIDvalidationAPI.php with bank_tran_id, refund_trans_id (newer API: the merchant's
    // id of the refund, so a retry is the same refund), refund_amount, refund_remarks, refe_id; the
    // answer carries APIConnect, bank_tran_id, trans_id, refund_ref_id, status and errorReason.
    async initiateRefund(req) {
      const body = await call(REFUND_PATH, {
        method: 'GET',
        query: {
          bank_tran_id: req.bankTranId,
          refund_trans_id: req.refundTransId,
          refund_amount: `${req.amount}.00`,
          refund_remarks: req.remarks.slice(0, 255),
          refe_id: req.refeId,
          ...credentials,
          v: '1',
          format: 'json',
        },
      })
      return refundAnswer(body)
    },

    // The refund query ("Query the Refund Status"; sslcommerz-lts `refundQuery`): the same endpoint with refund_ref_id,
    // store_id, store_passwd, and v=1 and format=json as SSLCommerz's own client sends them.
    async refundQuery(refundRefId) {
      const body = await call(REFUND_PATH, { method: 'GET', query: { refund_ref_id: refundRefId, ...credentials, v: '1', format: 'json' } })
      return refundAnswer(body)
    },
  }
}

const REFUND_PATH = '/validator/api/merchantTransIDvalidationAPI.php'

function refundAnswer(body: Record<string, unknown>): SslRefund {
  if (body.APIConnect !== 'DONE') throw new GatewayUnavailableError(`${REFUND_PATH} (refund): APIConnect ${String(body.APIConnect)}`)
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null)
  return {
    status: typeof body.status === 'string' ? body.status.toLowerCase() : '',
    bankTranId: text(body.bank_tran_id),
    refundRefId: text(body.refund_ref_id),
    errorReason: (text(body.errorReason) ?? '').slice(0, 300),
    refundedOn: text(body.refunded_on),
  }
}

/**
 * Whether a form SSLCommerz posted to us (IPN, browser return) carries its signature made with
 * our store password, checked as SSLCommerz's own library does (sslcommerz/SSLCommerz-PHP,
 * lib/SslCommerzNotification.php `SSLCOMMERZ_hash_varify`): take the posted fields named in
 * `verify_key` (comma-separated), add `store_passwd` = md5(store password), sort by name, join as
 * `name=value` with `&`; `verify_sign` is the md5 (hex) of that text. `verify_sign_sha2`, which
 * newer forms carry as well, is taken as its SHA-256 and accepted only when verify_sign is absent.
 * `mustSign` names posted fields that must be among the signed ones: a signature over other
 * fields says nothing about them (a forger could otherwise reuse a real form with another tran_id).
 */
export function signatureOk(form: Record<string, string>, storePassword: string, mustSign: readonly string[]): boolean {
  const keyList = form.verify_key
  if (typeof keyList !== 'string' || !keyList) return false
  const keys = new Set(keyList.split(','))
  if (mustSign.some((k) => !keys.has(k))) return false
  const fields = new Map<string, string>()
  for (const k of keys) if (Object.hasOwn(form, k) && typeof form[k] === 'string') fields.set(k, form[k])
  fields.set('store_passwd', crypto.createHash('md5').update(storePassword).digest('hex'))
  const text = [...fields.keys()]
    .sort()
    .map((k) => `${k}=${fields.get(k)}`)
    .join('&')
  const same = (sent: unknown, algorithm: 'md5' | 'sha256') => {
    if (typeof sent !== 'string') return false
    const want = crypto.createHash(algorithm).update(text).digest()
    const got = Buffer.from(sent.toLowerCase(), 'hex')
    return got.length === want.length && crypto.timingSafeEqual(got, want)
  }
  return typeof form.verify_sign === 'string' ? same(form.verify_sign, 'md5') : same(form.verify_sign_sha2, 'sha256')
}
