/**
 * Every setting the server reads from the environment, parsed once, and the list
 * of what is wrong with them. `NODE_ENV=production` needs the real channels (card
 * gateway, SMTP, SMS provider): a production start with any of them missing is
 * refused with one message naming every missing variable, never run on a stand-in.
 */
import net from 'node:net'
import { HOLD_MINUTES, MAX_HOLD_MINUTES } from '../contract/schemas.ts'
import { SEAT_STREAM_SILENCE_SECONDS } from '../contract/values.ts'
import { DEV_TICKET_SIGNING_KEY, publicKeyOf, readSigningKey } from './lib/ticket-signing.ts'

/** The card gateway: the development sandbox page, or SSLCommerz. */
export type PaymentConfig =
  | { provider: 'sandbox' }
  | { provider: 'sslcommerz'; storeId: string; storePassword: string; apiUrl: string; timeoutMs: number }

/** An SMS provider and its settings (SMS_PROVIDER or SMS_FALLBACK_PROVIDER; see server/delivery/sms.ts). */
export type SmsConfig =
  | { provider: 'sslwireless'; apiToken: string; sid: string; apiUrl: string }
  | { provider: 'bulksmsbd'; apiKey: string; senderId: string; apiUrl: string }
  | { provider: 'http-json'; url: string; token: string; senderId: string | null }

/** The SMS providers an operator can pick. */
export const SMS_PROVIDERS = ['sslwireless', 'bulksmsbd', 'http-json'] as const

/** SSL Wireless SMS Plus's public host (their v3 clients post to <host>/api/v3/send-sms). */
export const SSLWIRELESS_DEFAULT_URL = 'https://smsplus.sslwireless.com'
/** BulkSMSBD's single-SMS endpoint (bulksmsbd.com/bulksms-api-bangladesh.php names it over http; it answers on https too). */
export const BULKSMSBD_DEFAULT_URL = 'https://bulksmsbd.net/api/smsapi'

/** Parsed settings; see docs/configuration.md and docs/operating.md "Running in production". */
export interface ServerConfig {
  production: boolean
  /** Public origin of this API server (gateway callbacks), e.g. https://api.example.com. */
  publicUrl: string
  /** Public origin of the web app (where the payment result pages are); defaults to publicUrl. */
  appUrl: string
  holdMinutes: number
  maxHoldMinutes: number
  /** How long seats offered to a waitlisted passenger are held for them, in seconds (WAITLIST_OFFER_SECONDS, else WAITLIST_OFFER_MINUTES). */
  waitlistOfferSeconds: number
  /** How often each process offers seats freed by time (lapsed holds, expired bookings) to waitlists (WAITLIST_SWEEP_SECONDS). */
  waitlistSweepSeconds: number
  /** How long identical trip searches are answered from memory (0: never). */
  searchCacheMs: number
  /** How long a process answers a rush date's waiting places from memory before reading it again (server/queue/memory.ts); 0: never. */
  queueStatusCacheMs: number
  /**
   * How long a process takes a waiting-room poll's session as it last found it (server/routes/queue.ts): the
   * poll's only database read when memory answers it; a session ended since is still taken for a poll (and only
   * for a poll) for up to this long. 0: every poll looks the session up.
   */
  queueSessionCacheMs: number
  /** Days after which a password must be reset (PASSWORD_EXPIRED); 0: never. */
  passwordMaxAgeDays: number
  /** Seats one client address may hold on one trip (HOLD_LIMIT_PER_ADDRESS). */
  holdLimitPerAddress: number
  /** Seats one client address may hold across all trips (HOLD_LIMIT_PER_ADDRESS_TOTAL). */
  holdLimitPerAddressTotal: number
  /** Seats one passenger may have in unpaid bookings across all trips (UNPAID_SEATS_PER_PASSENGER). */
  unpaidSeatsPerPassenger: number
  /** Seats one passenger (account, or mobile number) may have sold or booked for one travel date, all trips (SEATS_PER_PASSENGER_PER_DATE). */
  seatsPerPassengerPerDate: number
  /** Requests per minute per address on all routes (in memory, per process). */
  rateLimitMax: number
  /** Rush-date queue: passengers admitted per minute when the rush date sets none, or 'auto': as many as seats are free (QUEUE_ADMIT_PER_MINUTE). */
  queueAdmitPerMinute: number | 'auto'
  /** Rush-date queue: minutes an admission lasts when the rush date sets none (QUEUE_ADMIT_MINUTES). */
  queueAdmitMinutes: number
  /** Rush-date queue: queue tokens one client address may be issued in an hour (QUEUE_DEVICES_PER_ADDRESS). */
  queueDevicesPerAddress: number
  /** Requests per minute per address on each sign-in and code route (kept in the database). */
  authRateLimitMax: number
  /** Wrong passwords one mobile no. takes in 15 minutes before its password sign-in waits (LOGIN_FAILURE_LIMIT). */
  loginFailureLimit: number
  /** One-time-code SMS one client address may make the server send in an hour (SMS_LIMIT_PER_ADDRESS). */
  smsLimitPerAddress: number
  /** One-time-code SMS the whole site sends in an hour at most (SMS_HOURLY_BUDGET); past it, SMS_PROVIDER_SERVICE_UNAVAILABLE. */
  smsHourlyBudget: number
  /** Percent of SMS_HOURLY_BUDGET that sign-up codes may spend (SMS_SIGNUP_SHARE); the rest is kept for codes to existing accounts. */
  smsSignupShare: number
  /** IPv6 clients are counted by this prefix length (IPV6_CLIENT_PREFIX, 32 to 64): every address in one such network is one client. */
  ipv6ClientPrefix: number
  payment: PaymentConfig
  /** SMTP e-mail (SMTP_URL, MAIL_FROM); null: the development outbox only. */
  smtp: { url: string; from: string } | null
  /** The SMS provider (SMS_PROVIDER and its settings); null: the development outbox only. */
  sms: SmsConfig | null
  /** The provider a message goes to when the first refuses it or cannot take it after its retries (SMS_FALLBACK_PROVIDER). */
  smsFallback?: SmsConfig | null
  /** Bearer token that opens /metrics; null: no /metrics. */
  metricsToken: string | null
  /** Days after today for which trips are generated from the timetable. */
  tripDaysAhead: number
  /** Where a card-paid ticket's refund goes (REFUND_TO): back to the card (default) or to the account balance. */
  refundTo?: 'card' | 'balance'
  /** Seconds before a refund the gateway refused or did not answer is tried again, doubling each time (REFUND_RETRY_SECONDS). */
  refundRetrySeconds?: number
  /** Tries of one refund before it is FAILED and listed for the operator (REFUND_MAX_ATTEMPTS). */
  refundMaxAttempts?: number
  /** Taka charged for moving a ticket to another trip (TICKET_CHANGE_CHARGE, default 0). */
  ticketChangeCharge?: number
  /** Sends of one message before it is FAILED (DELIVERY_MAX_ATTEMPTS). */
  deliveryMaxAttempts: number
  /** How long a claimed message is reserved for the process sending it (DELIVERY_LEASE_SECONDS). */
  deliveryLeaseSeconds: number
  /**
   * Which proxies' X-Forwarded-For is believed (TRUST_PROXY): `false` none (the socket's
   * address is the client), a hop count (`1`: the address the nearest proxy saw), or the
   * proxies' addresses and CIDR ranges. Never "every sender".
   */
  trustProxy: TrustProxy
  /** Live seat-map streams one process keeps open at most (SEAT_STREAMS_MAX); more are refused with 503. */
  seatStreamsMax: number
  /** Live seat-map streams one client address may have open, on all processes together (SEAT_STREAMS_PER_ADDRESS). */
  seatStreamsPerAddress: number
  /** Time between two heartbeats on a live seat-map stream (SEAT_STREAM_HEARTBEAT_SECONDS), in ms. */
  seatStreamHeartbeatMs: number
  /** Origins of web apps on other origins that may call /api (CORS_ORIGINS), e.g. https://app.example.com. */
  corsOrigins: string[]
  /** The operator's Ed25519 private key (TICKET_SIGNING_KEY, PKCS#8 PEM) that signs the tickets' QR codes; unset: the development key (refused in production). */
  ticketSigningKey?: string
}

type Env = Record<string, string | undefined>

/** TRUST_PROXY parsed: no proxy, a hop count, or the proxies' addresses / CIDR ranges. */
export type TrustProxy = false | { hops: number } | { addresses: string[] }

/** proxy-addr's names for whole ranges (loopback: 127.0.0.1/8 and ::1/128, and so on). */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/** An address or CIDR range as proxy-addr takes it: `10.0.0.1`, `10.0.0.0/8`, `2001:db8::/32`, or a range name. */
function isProxyAddress(v: string): boolean {
  if (RANGE_NAMES.has(v)) return true
  const [ip = '', bits, ...rest] = v.split('/')
  const family = net.isIP(ip)
  if (!family || rest.length > 0) return false
  if (bits === undefined) return true
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)
}

const TRUST_PROXY_FORMS =
  "a hop count (1: the address your one proxy saw) or a comma-separated list of the proxies' addresses or CIDR ranges (e.g. 10.0.0.0/8,loopback)"

/**
 * TRUST_PROXY: unset for none; a whole number of hops; or a list of addresses and CIDR
 * ranges. `true` ("believe any X-Forwarded-For") and anything unparseable are problems,
 * never a guess: the per-address limits depend on it.
 */
function readTrustProxy(value: string | undefined, problems: string[]): TrustProxy {
  const v = value?.trim() ?? ''
  if (v === '') return false
  if (/^\d+$/.test(v)) {
    const hops = Number(v)
    if (hops >= 1 && hops <= 10) return { hops }
    problems.push(`TRUST_PROXY=${v}: a hop count is 1 to 10 (unset TRUST_PROXY when no proxy is in front)`)
    return false
  }
  if (/^(true|yes|on|all|\*)$/i.test(v)) {
    problems.push(`TRUST_PROXY=${v} would believe any X-Forwarded-For a client writes; set ${TRUST_PROXY_FORMS}`)
    return false
  }
  const addresses = v.split(',').map((a) => a.trim())
  // A /0 range is every address: the same as `true` (and proxy-addr would refuse it at start).
  const everyone = addresses.filter((a) => /\/0+$/.test(a) && isProxyAddress(a))
  if (everyone.length > 0) {
    problems.push(`TRUST_PROXY=${v}: ${everyone.join(', ')} would believe any X-Forwarded-For a client writes; set ${TRUST_PROXY_FORMS}`)
    return false
  }
  const bad = addresses.filter((a) => !isProxyAddress(a))
  if (bad.length > 0) {
    problems.push(`TRUST_PROXY=${v}: ${bad.map((b) => `"${b}"`).join(', ')} is not an address or CIDR range; set ${TRUST_PROXY_FORMS}`)
    return false
  }
  return { addresses }
}

/** The shortest METRICS_TOKEN production takes (a guessable token would open /metrics). */
export const METRICS_TOKEN_MIN_LENGTH = 32

/** True for a URL whose host is this machine (localhost, 127.x, ::1): nothing outside can reach it. */
function onThisMachine(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '')
    return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
  } catch {
    return false
  }
}

const positiveInt = (v: string | undefined, fallback: number): number => {
  if (v === undefined || v.trim() === '') return fallback
  const n = Number(v)
  return Number.isInteger(n) && n > 0 ? n : NaN
}

const httpUrl = (v: string) => /^https?:\/\/[^\s/]+(\/\S*)?$/i.test(v)

/** An origin as a browser sends it (scheme, host, port; default ports dropped), or null when `v` is anything more or less. */
function asOrigin(v: string): string | null {
  if (/[*?#@]/.test(v) || v.endsWith('/')) return null
  let u: URL
  try {
    u = new URL(v)
  } catch {
    return null
  }
  return (u.protocol === 'http:' || u.protocol === 'https:') && u.pathname === '/' ? u.origin : null
}

/** CORS_ORIGINS: comma-separated origins; each malformed one is named in `problems`. */
function readOrigins(value: string | undefined, problems: string[]): string[] {
  const origins = new Set<string>()
  for (const raw of (value ?? '').split(',')) {
    const v = raw.trim()
    if (!v) continue
    const origin = asOrigin(v)
    if (origin) origins.add(origin)
    else problems.push(`CORS_ORIGINS: "${v}" is not an origin (http(s)://host[:port]: no path, no trailing slash, no wildcard)`)
  }
  return [...origins]
}

/** Reads the settings from `env`; `problems` lists each missing or malformed variable (empty when it may start). */
export function readConfig(env: Env = process.env): { config: ServerConfig; problems: string[] } {
  const problems: string[] = []
  const production = env.NODE_ENV === 'production'
  const get = (k: string) => {
    const v = env[k]?.trim()
    return v ? v : undefined
  }
  const need = (k: string) => {
    const v = get(k)
    if (!v) problems.push(`${k} is not set`)
    return v ?? ''
  }
  const int = (k: string, fallback: number) => {
    const n = positiveInt(env[k], fallback)
    if (Number.isNaN(n)) {
      problems.push(`${k} must be a positive whole number`)
      return fallback
    }
    return n
  }
  const between = (k: string, fallback: number, min: number, max: number) => {
    const n = positiveInt(env[k], fallback)
    if (Number.isNaN(n) || n < min || n > max) {
      problems.push(`${k} must be a whole number from ${min} to ${max}`)
      return fallback
    }
    return n
  }

  // a test waits out an offer in seconds; an operator sets minutes
  const waitlistOfferSeconds = () => {
    if (get('WAITLIST_OFFER_SECONDS') === undefined) return between('WAITLIST_OFFER_MINUTES', 10, 1, 1440) * 60
    if (get('WAITLIST_OFFER_MINUTES') !== undefined) problems.push('set WAITLIST_OFFER_SECONDS or WAITLIST_OFFER_MINUTES, not both')
    return between('WAITLIST_OFFER_SECONDS', 600, 10, 86_400)
  }

  const port = get('PORT') ?? '8080'
  const publicUrl = (get('PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '')
  if (production && !get('PUBLIC_URL')) problems.push('PUBLIC_URL is not set (the public https origin of this server, for gateway callbacks)')
  else if (!httpUrl(publicUrl)) problems.push('PUBLIC_URL must be an http(s) URL')
  else if (production && !/^https:/i.test(publicUrl) && !onThisMachine(publicUrl)) {
    // the gateway's callbacks and the ticket links would travel in clear text
    problems.push(`PUBLIC_URL must be https in production, not ${publicUrl}`)
  }
  const appUrl = (get('APP_URL') ?? publicUrl).replace(/\/+$/, '')
  if (!httpUrl(appUrl)) problems.push('APP_URL must be an http(s) URL')

  let payment: PaymentConfig = { provider: 'sandbox' }
  const provider = get('PAYMENT_PROVIDER') ?? (production ? undefined : 'sandbox')
  if (provider === 'sslcommerz') {
    const apiUrl = need('SSLCOMMERZ_API_URL').replace(/\/+$/, '')
    if (apiUrl && !httpUrl(apiUrl)) problems.push('SSLCOMMERZ_API_URL must be an http(s) URL')
    payment = {
      provider: 'sslcommerz',
      storeId: need('SSLCOMMERZ_STORE_ID'),
      storePassword: need('SSLCOMMERZ_STORE_PASSWORD'),
      apiUrl,
      timeoutMs: int('SSLCOMMERZ_TIMEOUT_MS', 15_000),
    }
  } else if (provider === 'sandbox') {
    if (production) problems.push('PAYMENT_PROVIDER=sandbox is refused in production (set PAYMENT_PROVIDER=sslcommerz)')
  } else if (provider === undefined) {
    problems.push('PAYMENT_PROVIDER is not set (sslcommerz)')
    for (const k of ['SSLCOMMERZ_STORE_ID', 'SSLCOMMERZ_STORE_PASSWORD', 'SSLCOMMERZ_API_URL']) if (!get(k)) problems.push(`${k} is not set`)
  } else {
    problems.push(`PAYMENT_PROVIDER must be sslcommerz${production ? '' : ' or sandbox'}, not "${provider}"`)
  }

  let smtp: ServerConfig['smtp'] = null
  if (get('SMTP_URL') || production) {
    const url = need('SMTP_URL')
    const from = need('MAIL_FROM')
    if (url && !/^smtps?:\/\/[^\s]+$/i.test(url)) problems.push('SMTP_URL must look like smtp://user:pass@host:port or smtps://…')
    smtp = { url, from }
  }

  // SMS_PROVIDER unset: SMS_API_URL alone still means the JSON relay (configurations from before SMS_PROVIDER).
  const smsProvider = get('SMS_PROVIDER') ?? (get('SMS_API_URL') ? 'http-json' : undefined)
  let sms: ServerConfig['sms'] = null
  if (smsProvider) sms = readSms('SMS_PROVIDER', smsProvider, get, need, problems)
  else if (production)
    problems.push(
      'SMS_PROVIDER is not set (sslwireless with SSLWIRELESS_API_TOKEN and SSLWIRELESS_SID, bulksmsbd with BULKSMSBD_API_KEY and BULKSMSBD_SENDER_ID, or http-json with SMS_API_URL and SMS_API_TOKEN)',
    )
  const fallbackProvider = get('SMS_FALLBACK_PROVIDER')
  let smsFallback: ServerConfig['sms'] = null
  if (fallbackProvider) {
    if (!sms) problems.push('SMS_FALLBACK_PROVIDER needs SMS_PROVIDER')
    else if (fallbackProvider === sms.provider) problems.push(`SMS_FALLBACK_PROVIDER must be another provider than SMS_PROVIDER (${sms.provider})`)
    else smsFallback = readSms('SMS_FALLBACK_PROVIDER', fallbackProvider, get, need, problems)
  }

  const metricsToken = get('METRICS_TOKEN') ?? null
  if (production && metricsToken !== null && metricsToken.length < METRICS_TOKEN_MIN_LENGTH) {
    problems.push(
      `METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters in production (it has ${metricsToken.length}); e.g. openssl rand -hex 32`,
    )
  }

  const ticketSigningKey = readTicketSigningKey(get('TICKET_SIGNING_KEY'), production, problems)

  const searchCache = env.SEARCH_CACHE_MS
  const queueCache = env.QUEUE_STATUS_CACHE_MS
  const queueSessionCache = env.QUEUE_SESSION_CACHE_MS
  const config: ServerConfig = {
    production,
    publicUrl,
    appUrl,
    holdMinutes: HOLD_MINUTES,
    maxHoldMinutes: MAX_HOLD_MINUTES,
    waitlistOfferSeconds: waitlistOfferSeconds(),
    waitlistSweepSeconds: between('WAITLIST_SWEEP_SECONDS', 15, 1, 3600),
    searchCacheMs: searchCache !== undefined ? Math.max(0, Number(searchCache) || 0) : 2000,
    queueStatusCacheMs: queueCache !== undefined ? Math.max(0, Number(queueCache) || 0) : 250,
    queueSessionCacheMs: queueSessionCache !== undefined ? Math.max(0, Number(queueSessionCache) || 0) : 30_000,
    passwordMaxAgeDays: Math.max(0, Number(env.PASSWORD_MAX_AGE_DAYS) || 0),
    holdLimitPerAddress: int('HOLD_LIMIT_PER_ADDRESS', 10),
    holdLimitPerAddressTotal: int('HOLD_LIMIT_PER_ADDRESS_TOTAL', 30),
    unpaidSeatsPerPassenger: int('UNPAID_SEATS_PER_PASSENGER', 10),
    seatsPerPassengerPerDate: int('SEATS_PER_PASSENGER_PER_DATE', 4),
    rateLimitMax: int('RATE_LIMIT_MAX', 60_000),
    queueAdmitPerMinute: env.QUEUE_ADMIT_PER_MINUTE?.trim() === 'auto' ? 'auto' : int('QUEUE_ADMIT_PER_MINUTE', 60),
    queueAdmitMinutes: int('QUEUE_ADMIT_MINUTES', 10),
    queueDevicesPerAddress: int('QUEUE_DEVICES_PER_ADDRESS', 1000),
    authRateLimitMax: int('AUTH_RATE_LIMIT_MAX', 30),
    loginFailureLimit: int('LOGIN_FAILURE_LIMIT', 10),
    smsLimitPerAddress: int('SMS_LIMIT_PER_ADDRESS', 20),
    smsHourlyBudget: int('SMS_HOURLY_BUDGET', 2000),
    smsSignupShare: between('SMS_SIGNUP_SHARE', 50, 1, 100),
    ipv6ClientPrefix: between('IPV6_CLIENT_PREFIX', 48, 32, 64),
    payment,
    smtp,
    sms,
    metricsToken,
    smsFallback,
    tripDaysAhead: int('TRIP_DAYS_AHEAD', 30),
    refundTo: readRefundTo(env.REFUND_TO, problems),
    refundRetrySeconds: int('REFUND_RETRY_SECONDS', 60),
    refundMaxAttempts: int('REFUND_MAX_ATTEMPTS', 5),
    ticketChangeCharge: readChangeCharge(env.TICKET_CHANGE_CHARGE, problems),
    deliveryMaxAttempts: int('DELIVERY_MAX_ATTEMPTS', 8),
    deliveryLeaseSeconds: int('DELIVERY_LEASE_SECONDS', 120),
    trustProxy: readTrustProxy(env.TRUST_PROXY, problems),
    seatStreamsMax: int('SEAT_STREAMS_MAX', 10_000),
    seatStreamsPerAddress: int('SEAT_STREAMS_PER_ADDRESS', 20),
    seatStreamHeartbeatMs: int('SEAT_STREAM_HEARTBEAT_SECONDS', 15) * 1000,
    corsOrigins: readOrigins(env.CORS_ORIGINS, problems),
    ...(ticketSigningKey ? { ticketSigningKey } : {}),
  }
  if (config.seatStreamHeartbeatMs >= SEAT_STREAM_SILENCE_SECONDS * 1000) {
    // the app takes a stream this quiet for dropped: every quiet seat page would reconnect and reload
    problems.push(`SEAT_STREAM_HEARTBEAT_SECONDS must be below ${SEAT_STREAM_SILENCE_SECONDS} (the app takes a stream silent that long for dropped)`)
  }
  return { config, problems }
}

/** One SMS provider's settings, read for SMS_PROVIDER or SMS_FALLBACK_PROVIDER (`which`). */
function readSms(
  which: string,
  provider: string,
  get: (k: string) => string | undefined,
  need: (k: string) => string,
  problems: string[],
): SmsConfig | null {
  const url = (k: string, fallback?: string) => {
    const v = (get(k) ?? fallback ?? need(k)).replace(/\/+$/, '')
    if (v && !httpUrl(v)) problems.push(`${k} must be an http(s) URL`)
    return v
  }
  switch (provider) {
    case 'sslwireless':
      return {
        provider,
        apiToken: need('SSLWIRELESS_API_TOKEN'),
        sid: need('SSLWIRELESS_SID'),
        apiUrl: url('SSLWIRELESS_API_URL', SSLWIRELESS_DEFAULT_URL),
      }
    case 'bulksmsbd':
      return {
        provider,
        apiKey: need('BULKSMSBD_API_KEY'),
        senderId: need('BULKSMSBD_SENDER_ID'),
        apiUrl: url('BULKSMSBD_API_URL', BULKSMSBD_DEFAULT_URL),
      }
    case 'http-json':
      return { provider, url: url('SMS_API_URL'), token: need('SMS_API_TOKEN'), senderId: get('SMS_SENDER_ID') ?? null }
    default:
      problems.push(`${which} must be ${SMS_PROVIDERS.join(', ')}, not "${provider}"`)
      return null
  }
}

/** The one message a refused start prints: every problem on its own line. */
export function describeProblems(problems: string[], production: boolean): string {
  const head = production
    ? 'Refusing to start in production (NODE_ENV=production): the real channels are not configured.'
    : 'Refusing to start: the configuration is incomplete.'
  return [head, ...problems.map((p) => `  - ${p}`), 'See docs/operating.md, "Running in production", and docs/configuration.md.'].join('\n')
}

/** TICKET_SIGNING_KEY: an Ed25519 private key in PKCS#8 PEM; required in production, and never the development key there. */
function readTicketSigningKey(pem: string | undefined, production: boolean, problems: string[]): string | undefined {
  const make = 'make one with: openssl genpkey -algorithm ed25519'
  if (!pem) {
    if (production) problems.push(`TICKET_SIGNING_KEY is not set (the Ed25519 private key that signs the tickets' QR codes; ${make})`)
    return undefined
  }
  const key = readSigningKey(pem)
  if (!key) problems.push(`TICKET_SIGNING_KEY is not an Ed25519 private key in PEM (${make})`)
  else if (production && publicKeyOf(key) === publicKeyOf(readSigningKey(DEV_TICKET_SIGNING_KEY)!)) {
    problems.push(`TICKET_SIGNING_KEY is the development key, which is public; ${make}`)
  }
  return pem
}

/** TICKET_CHANGE_CHARGE: whole taka from 0 (the default) to 100000. */
function readChangeCharge(v: string | undefined, problems: string[]): number {
  if (v === undefined || v.trim() === '') return 0
  const n = Number(v)
  if (Number.isInteger(n) && n >= 0 && n <= 100_000) return n
  problems.push(`TICKET_CHANGE_CHARGE must be a whole number of taka from 0 to 100000, not "${v}"`)
  return 0
}

/** REFUND_TO: card (default) or balance. */
function readRefundTo(v: string | undefined, problems: string[]): 'card' | 'balance' {
  const x = (v ?? '').trim().toLowerCase()
  if (x === '' || x === 'card') return 'card'
  if (x === 'balance') return 'balance'
  problems.push(`REFUND_TO must be card or balance, not "${v}"`)
  return 'card'
}
