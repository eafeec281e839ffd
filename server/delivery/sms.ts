/**
 * SMS through an HTTP provider, picked by SMS_PROVIDER (and SMS_FALLBACK_PROVIDER):
 *
 * - `sslwireless`: SSL Wireless SMS Plus, API v3 single SMS. POST JSON
 *   `{ api_token, sid, msisdn, sms, csms_id }` to `<SSLWIRELESS_API_URL>/api/v3/send-sms`;
 *   the answer `{ status, status_code, error_message, smsinfo: [{ sms_status,
 *   status_message, reference_id, … }] }` says SUCCESS / 200 or FAILED with a code,
 *   whatever the HTTP status. Format from SSL Wireless's "Technical specification of
 *   push SMS connectivity API", version 3.0.0 (sections 3.1 API status codes, 3.2 SMS
 *   status codes, 4.1 single SMS), as their public clients send it (e.g. the
 *   KsSadi/SSLWirelessSMS Laravel client, emoncse/SSLWireless-SMSPlusPython).
 *   `csms_id` (alphanumeric, at most 20 characters, unique per day on the account) is
 *   the installation id and the outbox id, so no other database on the same account
 *   uses it. "Duplicate CSMS ID" (4023, or an smsinfo DUPLICATE) means this request
 *   sent nothing: a failure to look into (a resend after a crash mid-send, or an id
 *   used twice), never a send; a one-time code then goes to the fallback provider.
 * - `bulksmsbd`: BulkSMSBD single SMS API. POST form fields `api_key`, `type=text`,
 *   `number`, `senderid`, `message` (UTF-8, so Bengali goes as it is) to
 *   BULKSMSBD_API_URL; the answer `{ response_code, message_id, success_message,
 *   error_message }` (sometimes the bare code) is 202 when submitted, else an error
 *   code. Format and codes from bulksmsbd.com/bulksms-api-bangladesh.php ("Error
 *   Success Code & Meaning"): the page documents `type=text` only, with the message
 *   URL-encoded, and no `type=unicode` (some client libraries send one for non-ASCII
 *   text; the provider does not document it), so Bengali goes with `type=text`. It
 *   documents no client message id and no duplicate answer.
 * - `http-json`: an operator's own relay. POST JSON `{ to, text, sender }` with a
 *   Bearer token and an `Idempotency-Key`; 2xx accepted; 429, 5xx retried; any other
 *   answer refuses the message for good.
 *
 * For every provider a network error, a time-out or an HTTP 429/5xx without a
 * readable answer is retried; what the provider reports in its answer is classified
 * by its documented code (tables below): temporary codes are retried, the others
 * refuse the message for good (or hand it to the fallback provider), and those that
 * mean the operator's settings or account are wrong are flagged as configuration
 * errors. Long messages are sent whole: the providers split them and send Bengali
 * (Unicode) as such.
 */
import type { SmsConfig } from '../config.ts'
import { DeliveryError, type OutgoingMessage, type Transport } from './transport.ts'

/** The http-json relay's settings (SMS_API_URL, SMS_API_TOKEN, SMS_SENDER_ID). */
export interface SmsSettings {
  url: string
  token: string
  senderId: string | null
}

/** `8801XXXXXXXXX` for a Bangladeshi mobile number in any usual form (01…, 8801…, +8801…, 008801…), else null. */
export function toSmsNumber(mobile: string): string | null {
  const digits = mobile
    .replace(/[\s()-]/g, '')
    .replace(/^\+/, '')
    .replace(/^00/, '')
  const m = /^(?:88)?(01[3-9]\d{8})$/.exec(digits)
  return m ? '88' + m[1] : null
}

/** The transport of one configured SMS provider. */
export function smsProviderTransport(cfg: SmsConfig, opts: { timeoutMs: number }): Transport {
  switch (cfg.provider) {
    case 'sslwireless':
      return sslWirelessTransport(cfg, opts)
    case 'bulksmsbd':
      return bulkSmsBdTransport(cfg, opts)
    case 'http-json':
      return smsTransport(cfg, opts)
  }
}

/** How a documented answer code is handled. */
type Outcome = 'temporary' | 'permanent' | 'config'

/** SSL Wireless API status codes (spec 3.1). 4023 (duplicate csms_id) is handled apart: a failure, never a send. */
export const SSL_WIRELESS_CODES: Record<number, [Outcome, string]> = {
  4001: ['config', 'Unauthorized (invalid API token)'],
  4002: ['config', 'SID/stakeholder is not permitted to send SMS'],
  4003: ['config', 'IP blacklisted'],
  4004: ['config', 'end point not found (check SSLWIRELESS_API_URL)'],
  4005: ['permanent', 'invalid request format'],
  4020: ['permanent', 'invalid CSMS ID'],
  4022: ['config', 'required parameter missing'],
  4025: ['permanent', 'invalid MSISDN'],
  4026: ['permanent', 'blocked MSISDN'],
  4027: ['permanent', 'message length exceeded'],
  4028: ['permanent', 'invalid message data'],
  4029: ['temporary', 'too many requests'],
  4030: ['permanent', 'limit exceeded'],
  4031: ['temporary', 'TPS exceeded'],
  5000: ['temporary', 'unknown error'],
}

/**
 * BulkSMSBD response codes (bulksmsbd.com, "Error Success Code & Meaning"); 202 is success. None is
 * documented as worth retrying: 1005 "Internal Error" says nothing of when it would pass (and is also
 * seen for a sender id the account may not use), so it is a refusal: the fallback provider gets the
 * message at once, and without one it fails with the reason.
 */
export const BULKSMSBD_CODES: Record<number, [Outcome, string]> = {
  1001: ['permanent', 'invalid number'],
  1002: ['config', 'sender id not correct or disabled'],
  1003: ['config', 'required fields missing'],
  1005: ['permanent', 'internal error'],
  1006: ['permanent', 'balance validity not available'],
  1007: ['permanent', 'balance insufficient'],
  1011: ['config', 'user id not found'],
  1012: ['permanent', 'masking SMS must be sent in Bengali'],
  1013: ['config', 'sender id has no gateway for this API key'],
  1014: ['config', 'sender type name not found for this sender'],
  1015: ['config', 'sender id has no valid gateway for this API key'],
  1016: ['config', 'sender type active price info not found'],
  1017: ['config', 'sender type price info not found'],
  1018: ['config', 'the account owner is disabled'],
  1019: ['config', 'the sender type price of this account is disabled'],
  1020: ['config', 'the parent of this account is not found'],
  1021: ['config', 'the parent active price of this account is not found'],
  1031: ['config', 'account not verified'],
  1032: ['config', 'IP not whitelisted'],
}

/** The refusal for a documented code; an undocumented one is permanent, or temporary when `unknownTemporary`. */
function refusal(
  who: string,
  code: number | null,
  reason: string,
  table: Record<number, [Outcome, string]>,
  unknownTemporary: boolean,
): DeliveryError {
  const known = code !== null ? table[code] : undefined
  const outcome: Outcome = known ? known[0] : unknownTemporary ? 'temporary' : 'permanent'
  const why = clean(reason) || known?.[1] || 'no reason given'
  const text = `${who} ${code ?? 'error'}: ${why}${outcome === 'config' ? ' (configuration error)' : ''}`
  return new DeliveryError(text, outcome !== 'temporary', undefined, { config: outcome === 'config' })
}

/** The SSL Wireless SMS Plus v3 transport. */
export function sslWirelessTransport(cfg: Extract<SmsConfig, { provider: 'sslwireless' }>, opts: { timeoutMs: number }): Transport {
  const who = 'SSL Wireless'
  const endpoint = `${cfg.apiUrl.replace(/\/+$/, '')}/api/v3/send-sms`
  return {
    kind: 'sms-http',
    name: 'sslwireless',
    async send(msg, signal) {
      const msisdn = recipient(msg)
      const body = JSON.stringify({ api_token: cfg.apiToken, sid: cfg.sid, msisdn, sms: msg.text, csms_id: csmsId(msg) })
      const res = await post(who, endpoint, { 'content-type': 'application/json', accept: 'application/json' }, body, signal, opts.timeoutMs)
      const j = json(res.text)
      const status = typeof j?.status === 'string' ? j.status.toUpperCase() : null
      if (!j || status === null) throw httpRefusal(who, res)
      const code = Number(j.status_code)
      const info = Array.isArray(j.smsinfo) ? (j.smsinfo[0] as Record<string, unknown> | undefined) : undefined
      const reference =
        typeof info?.reference_id === 'string' || typeof info?.reference_id === 'number' ? String(info.reference_id).slice(0, 200) : null
      if (status === 'SUCCESS') {
        const smsStatus = typeof info?.sms_status === 'string' ? info.sms_status.toUpperCase() : 'SUCCESS'
        const message = typeof info?.status_message === 'string' ? info.status_message : ''
        if (smsStatus === 'SUCCESS') return { providerMessageId: reference }
        if (smsStatus === 'DUPLICATE' && /c?sms id|cms id/i.test(message)) throw duplicate(who, `${smsStatus}: ${clean(message)}`)
        // SMS status codes (spec 3.2): INVALID (MSISDN, length, CSMS ID) or DUPLICATE MSISDN.
        throw new DeliveryError(`${who} ${smsStatus}: ${clean(message) || 'refused'}`, true)
      }
      if (code === 4023) throw duplicate(who, `4023: ${clean(typeof j.error_message === 'string' ? j.error_message : '') || 'Duplicate CSMS ID'}`)
      const reason = typeof j.error_message === 'string' ? j.error_message : ''
      throw refusal(who, Number.isFinite(code) ? code : null, reason, SSL_WIRELESS_CODES, Number.isFinite(code) && code >= 5000)
    },
  }
}

/** The BulkSMSBD transport. */
export function bulkSmsBdTransport(cfg: Extract<SmsConfig, { provider: 'bulksmsbd' }>, opts: { timeoutMs: number }): Transport {
  const who = 'BulkSMSBD'
  return {
    kind: 'sms-http',
    name: 'bulksmsbd',
    async send(msg, signal) {
      const number = recipient(msg)
      const form = new URLSearchParams({ api_key: cfg.apiKey, type: 'text', number, senderid: cfg.senderId, message: msg.text })
      const res = await post(
        who,
        cfg.apiUrl,
        { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        form.toString(),
        signal,
        opts.timeoutMs,
      )
      const j = json(res.text)
      const bare = /^\s*(\d{3,4})\s*$/.exec(res.text)?.[1]
      const raw = j && typeof j === 'object' ? j.response_code : bare
      const code = raw === undefined || raw === null || raw === '' ? Number.NaN : Number(raw)
      if (!Number.isFinite(code)) throw httpRefusal(who, res)
      if (code === 202) {
        const id = j?.message_id
        return { providerMessageId: typeof id === 'string' || typeof id === 'number' ? String(id).slice(0, 200) : null }
      }
      const reason = typeof j?.error_message === 'string' ? j.error_message : ''
      throw refusal(who, code, reason, BULKSMSBD_CODES, false)
    },
  }
}

/** The http-json relay transport (SMS_PROVIDER=http-json, or SMS_API_URL alone). */
export function smsTransport(cfg: SmsSettings, opts: { timeoutMs: number }): Transport {
  const who = 'SMS provider'
  return {
    kind: 'sms-http',
    name: 'http-json',
    async send(msg, signal) {
      const to = recipient(msg)
      const res = await post(
        who,
        cfg.url,
        {
          authorization: `Bearer ${cfg.token}`,
          'content-type': 'application/json',
          accept: 'application/json',
          'idempotency-key': msg.idempotencyKey,
        },
        JSON.stringify({ to, text: msg.text, ...(cfg.senderId ? { sender: cfg.senderId } : {}) }),
        signal,
        opts.timeoutMs,
      )
      if (res.status >= 200 && res.status < 300) return { providerMessageId: providerId(res.text) }
      throw httpRefusal(who, res)
    },
  }
}

/** The recipient as 8801XXXXXXXXX; anything else is refused for good without a request. */
function recipient(msg: OutgoingMessage): string {
  const to = toSmsNumber(msg.to)
  if (!to) throw new DeliveryError('not a Bangladeshi mobile number', true)
  return to
}

/** SSL Wireless's csms_id (alphanumeric, at most 20 characters, unique per day): the installation id, then the outbox id. */
export function csmsId(msg: Pick<OutgoingMessage, 'installationId' | 'id'>): string {
  const id = `${msg.installationId}${msg.id}`
  if (!/^[A-Za-z0-9]{1,20}$/.test(id)) throw new DeliveryError(`no csms_id fits SSL Wireless's 20 characters for message ${msg.id}`, true)
  return id
}

/** A provider's "duplicate message id" answer: nothing was sent by this request. */
function duplicate(who: string, what: string): DeliveryError {
  return new DeliveryError(`${who} ${what} (duplicate message id: not sent by this request)`, true, undefined, { duplicate: true })
}

interface HttpAnswer {
  status: number
  headers: Headers
  text: string
}

/** POSTs `body`; a network error or a time-out is a temporary refusal. */
async function post(
  who: string,
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<HttpAnswer> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'error',
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    })
    return { status: res.status, headers: res.headers, text: await res.text() }
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } }
    const why = e.name === 'TimeoutError' || e.name === 'AbortError' ? 'timed out' : (e.cause?.code ?? e.message)
    throw new DeliveryError(`${who} unreachable: ${why}`, false)
  }
}

/** An answer without a readable result: 429 and 5xx (and a 2xx we cannot read) are retried, any other refuses for good. */
function httpRefusal(who: string, res: HttpAnswer): DeliveryError {
  const why = `${who} answered HTTP ${res.status}${detail(res.text)}`
  if (res.status === 429 || res.status >= 500 || (res.status >= 200 && res.status < 300))
    return new DeliveryError(why, false, retryAfterMs(res.headers.get('retry-after')))
  return new DeliveryError(why, true)
}

function json(body: string): Record<string, unknown> | null {
  try {
    const j = JSON.parse(body) as unknown
    return j && typeof j === 'object' && !Array.isArray(j) ? (j as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The provider's id for the message from a JSON answer (`id`, `messageId` or `message_id`), if any. */
function providerId(body: string): string | null {
  const j = json(body)
  for (const k of ['id', 'messageId', 'message_id']) {
    const v = j?.[k]
    if ((typeof v === 'string' && v.length > 0) || typeof v === 'number') return String(v).slice(0, 200)
  }
  return null
}

/**
 * A provider's reason, short and on one line. Digit runs are masked: a provider
 * that echoes the request must not put a code or a PIN into logs.
 */
function clean(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\d{4,}/g, (d) => '#'.repeat(d.length))
    .slice(0, 200)
}

/** A short reason from an error answer (JSON `error`, `message` or `detail`, or plain text). */
function detail(body: string): string {
  const j = json(body)
  let text = body
  if (j) {
    const v = j.error ?? j.message ?? j.detail
    text = typeof v === 'string' ? v : typeof (v as { message?: unknown })?.message === 'string' ? (v as { message: string }).message : ''
  }
  const c = clean(text)
  return c ? `: ${c}` : ''
}

/** Retry-After (seconds or an HTTP date) in ms, if usable. */
function retryAfterMs(v: string | null): number | undefined {
  if (!v) return undefined
  const s = Number(v)
  if (Number.isFinite(s) && s >= 0) return s * 1000
  const at = Date.parse(v)
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined
}
