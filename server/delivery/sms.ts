/**
 * SMS through an HTTP provider: POST JSON `{ to, text, sender }` with a Bearer token
 * and an `Idempotency-Key`. 2xx accepted; 429, 5xx, a network error or a time-out
 * are retried; any other answer refuses the message for good.
 */
import { DeliveryError, type Transport } from './transport.ts'

/** The provider's settings (SMS_API_URL, SMS_API_TOKEN, SMS_SENDER_ID). */
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

/** The HTTP SMS transport. */
export function smsTransport(cfg: SmsSettings, opts: { timeoutMs: number }): Transport {
  return {
    kind: 'sms-http',
    async send(msg, signal) {
      const to = toSmsNumber(msg.to)
      if (!to) throw new DeliveryError('not a Bangladeshi mobile number', true)
      let res: Response
      let answer: string
      try {
        res = await fetch(cfg.url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${cfg.token}`,
            'content-type': 'application/json',
            accept: 'application/json',
            'idempotency-key': msg.idempotencyKey,
          },
          body: JSON.stringify({ to, text: msg.text, ...(cfg.senderId ? { sender: cfg.senderId } : {}) }),
          redirect: 'error',
          signal: AbortSignal.any([signal, AbortSignal.timeout(opts.timeoutMs)]),
        })
        answer = await res.text()
      } catch (err) {
        const e = err as Error & { cause?: { code?: string } }
        const why = e.name === 'TimeoutError' || e.name === 'AbortError' ? 'timed out' : (e.cause?.code ?? e.message)
        throw new DeliveryError(`SMS provider unreachable: ${why}`, false)
      }
      if (res.status >= 200 && res.status < 300) return { providerMessageId: providerId(answer) }
      const why = `SMS provider answered HTTP ${res.status}${detail(answer)}`
      if (res.status === 429 || res.status >= 500) throw new DeliveryError(why, false, retryAfterMs(res.headers.get('retry-after')))
      throw new DeliveryError(why, true)
    },
  }
}

/** The provider's id for the message from a JSON answer (`id`, `messageId` or `message_id`), if any. */
function providerId(body: string): string | null {
  try {
    const j = JSON.parse(body) as Record<string, unknown>
    for (const k of ['id', 'messageId', 'message_id']) {
      const v = j?.[k]
      if ((typeof v === 'string' && v.length > 0) || typeof v === 'number') return String(v).slice(0, 200)
    }
  } catch {
    // not JSON: accepted without an id
  }
  return null
}

/**
 * A short reason from the provider's error answer. Digit runs are masked: a provider
 * that echoes the request must not put a code or a PIN into logs.
 */
function detail(body: string): string {
  let text = body
  try {
    const j = JSON.parse(body) as Record<string, unknown>
    const v = j?.error ?? j?.message ?? j?.detail
    text = typeof v === 'string' ? v : typeof (v as { message?: unknown })?.message === 'string' ? (v as { message: string }).message : ''
  } catch {
    // plain text
  }
  text = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\d{4,}/g, (d) => '#'.repeat(d.length))
    .slice(0, 200)
  return text ? `: ${text}` : ''
}

/** Retry-After (seconds or an HTTP date) in ms, if usable. */
function retryAfterMs(v: string | null): number | undefined {
  if (!v) return undefined
  const s = Number(v)
  if (Number.isFinite(s) && s >= 0) return s * 1000
  const at = Date.parse(v)
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined
}
