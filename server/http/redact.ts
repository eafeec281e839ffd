/**
 * URLs as they may appear in logs: PNRs, PINs, one-time codes, registration tokens,
 * mobile numbers and payment ids travel in some paths (the SPEC's GET routes), and
 * logs are read by more people, and kept longer, than the database. Every log line
 * the server writes about a request uses `redactUrl`.
 */
import crypto from 'node:crypto'
import { api } from '../../contract/api.ts'

/** Path parameters whose values never reach a log. */
const SECRET_PARAMS = new Set(['pnr', 'pin', 'otp', 'registrationToken', 'mobile', 'paymentId', 'couponCode', 'token'])

const MASK = '[redacted]'

interface Pattern {
  re: RegExp
  /** Segment positions of the secret parameters. */
  secret: number[]
}

function compile(path: string): Pattern {
  const segments = path.split('/')
  const secret = segments.flatMap((seg, i) => (seg.startsWith(':') && SECRET_PARAMS.has(seg.slice(1)) ? [i] : []))
  const source = segments.map((seg) => (seg.startsWith(':') ? '[^/]*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')
  return { re: new RegExp(`^${source}/?$`), secret }
}

const patterns: Pattern[] = [
  ...Object.values(api)
    .filter((r) => r.path.includes(':'))
    .map((r) => compile('/api' + r.path)),
  compile('/sandbox/gateway/:paymentId'),
]

/** The URL with secret path parameters and every query value replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?')
  const path = q < 0 ? url : url.slice(0, q)
  const query = q < 0 ? '' : url.slice(q + 1)
  let out = path
  const p = patterns.find((x) => x.re.test(path))
  if (p) {
    const parts = path.split('/')
    for (const i of p.secret) parts[i] = MASK
    out = parts.join('/')
  }
  if (!query) return out
  const keys = query.split('&').map((kv) => `${kv.split('=')[0]}=${MASK}`)
  return `${out}?${keys.join('&')}`
}

/**
 * A payment id as a log line may carry it: `pay_[redacted]#` and the first 8 hex digits of
 * the id's SHA-256, enough to tell payments apart and to find one in the database
 * (`WHERE left(encode(sha256(convert_to(id, 'UTF8')), 'hex'), 8) = '…'`), never the id itself.
 */
export function redactPaymentId(id: string): string {
  return `pay_${MASK}#${crypto.createHash('sha256').update(id).digest('hex').slice(0, 8)}`
}
