/**
 * The three SSLCommerz v4 endpoints we call, with `fetch` and a timeout:
 * the session API (`POST /gwprocess/v4/api.php`), the order validation API
 * (`GET /validator/api/validationserverAPI.php`) and the transaction query by
 * tran_id (`GET /validator/api/merchantTransIDvalidationAPI.php`).
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
  risk_level?: string | number
  risk_title?: string
  bank_tran_id?: string
  APIConnect?: string
  error?: string
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
        query: { tran_id: tranId, ...credentials, format: 'json' },
      })
      if (body.APIConnect !== 'DONE') {
        throw new GatewayUnavailableError(`/validator/api/merchantTransIDvalidationAPI.php: APIConnect ${String(body.APIConnect)}`)
      }
      return Array.isArray(body.element) ? (body.element.filter((e) => e && typeof e === 'object') as SslTransaction[]) : []
    },
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
