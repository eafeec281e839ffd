/**
 * Stand-ins for the SMS providers an operator signs with, on 127.0.0.1. Each accepts
 * only the request its provider documents and answers with that provider's
 * documented success and failure bodies (see server/delivery/sms.ts for the sources):
 *
 * - SSL Wireless SMS Plus v3: POST JSON `{ api_token, sid, msisdn, sms, csms_id }` to
 *   /api/v3/send-sms; answers HTTP 200 with `{ status: "SUCCESS", status_code: 200,
 *   error_message: "", smsinfo: [{ sms_status, status_message, msisdn, sms_type,
 *   sms_body, csms_id, reference_id }] }` or `{ status: "FAILED", status_code: 40xx,
 *   error_message }`; a csms_id (alphanumeric, at most 20) seen before is 4023 Duplicate
 *   CMS ID, whichever database sent it: one stand-in plays one provider account.
 * - BulkSMSBD: POST form fields `api_key`, `type=text` (the only type its API page
 *   documents, Bengali included), `number`, `senderid`, `message` to /api/smsapi; answers `{ response_code: 202, message_id,
 *   success_message: "SMS Submitted Successfully", error_message: "" }` or an error
 *   code with its documented meaning. (Which code a wrong key gets is not documented:
 *   this stand-in answers 1011 "User Id not found".)
 *
 * `fail(req, n)` scripts a failure for request n (1-based): a documented code, or
 * 'hang' to take the message (it counts as received) and never answer.
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { until } from './receivers.ts'

/** One request a stand-in received, with the fields it read. */
export interface ProviderRequest {
  at: number
  path: string
  contentType: string
  fields: Record<string, string>
  /** The stand-in's verdict: the code it answered (200 / 202 when accepted), or 'hang'. */
  answered: number | 'hang'
}

export interface ProviderStandIn {
  /** The base URL to configure (SSLWIRELESS_API_URL, or BULKSMSBD_API_URL). */
  url: string
  requests: ProviderRequest[]
  /** Messages it accepted (or took and left unanswered), in order. */
  accepted: ProviderRequest[]
  fail: (req: ProviderRequest, n: number) => number | 'hang' | null
  waitFor(n: number, timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

const SSL_MEANING: Record<number, string> = {
  4001: 'Unauthorized',
  4002: 'SID/Stakeholder is not permitted',
  4003: 'IP Blacklisted',
  4004: 'End point Not Found',
  4005: 'Invalid request format',
  4020: 'Invalid CSMS ID',
  4022: 'Required Parameter Missing',
  4023: 'Duplicate CMS ID',
  4025: 'Invalid MSISDN',
  4026: 'Blocked MSISDN',
  4027: 'Message length exceeded',
  4028: 'Invalid message data',
  4029: 'Too many requests',
  4030: 'Limit Exceed',
  4031: 'TPS Exceeded',
  5000: 'Unknown Error',
}

const BULKSMSBD_MEANING: Record<number, string> = {
  1001: 'Invalid Number',
  1002: 'sender id not correct/sender id is disabled',
  1003: 'Please Required all fields/Contact Your System Administrator',
  1005: 'Internal Error',
  1006: 'Balance Validity Not Available',
  1007: 'Balance Insufficient',
  1011: 'User Id not found',
  1012: 'Masking SMS must be sent in Bengali',
  1031: 'Your Account Not Verified, Please Contact Administrator',
  1032: 'IP Not whitelisted',
}

type Verdict = { code: number; body: unknown } | 'hang'

async function serve(
  decide: (req: http.IncomingMessage, raw: string, record: (r: Omit<ProviderRequest, 'at' | 'answered'>) => ProviderRequest) => Verdict,
): Promise<ProviderStandIn & { server: http.Server }> {
  const sockets = new Set<Socket>()
  const held: http.ServerResponse[] = []
  const standIn = {
    url: '',
    requests: [] as ProviderRequest[],
    accepted: [] as ProviderRequest[],
    fail: (() => null) as ProviderStandIn['fail'],
    waitFor: (n: number, timeoutMs?: number) =>
      until(() => standIn.requests.length >= n, `${n} provider request(s) (got ${standIn.requests.length})`, timeoutMs),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
    server: null as unknown as http.Server,
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      let recorded: ProviderRequest | null = null
      const verdict = decide(req, raw, (r) => {
        recorded = { ...r, at: Date.now(), answered: 0 }
        standIn.requests.push(recorded)
        return recorded
      })
      const rec = recorded as ProviderRequest | null
      if (verdict === 'hang') {
        if (rec) rec.answered = 'hang'
        held.push(res)
        return
      }
      if (rec) rec.answered = verdict.code
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(verdict.body))
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  standIn.server = server
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return standIn
}

/** The SSL Wireless SMS Plus v3 stand-in for the token and SID given. */
export async function startSslWireless(creds: { apiToken: string; sid: string }): Promise<ProviderStandIn> {
  const seen = new Set<string>()
  let ref = 5_000_000
  const failed = (code: number) => ({ code, body: { status: 'FAILED', status_code: code, error_message: SSL_MEANING[code] ?? 'Unknown Error' } })
  const s = await serve((req, raw, record) => {
    if (req.method !== 'POST' || req.url !== '/api/v3/send-sms') return failed(4004)
    const contentType = String(req.headers['content-type'] ?? '')
    let body: Record<string, unknown>
    try {
      body = JSON.parse(raw)
    } catch {
      return failed(4005)
    }
    if (!contentType.startsWith('application/json') || !body || typeof body !== 'object' || Array.isArray(body)) return failed(4005)
    const fields = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))
    const r = record({ path: req.url, contentType, fields })
    const names = Object.keys(body).sort().join(',')
    if (names !== 'api_token,csms_id,msisdn,sid,sms' || Object.values(body).some((v) => typeof v !== 'string' || v === '')) return failed(4022)
    if (body.api_token !== creds.apiToken) return failed(4001)
    if (body.sid !== creds.sid) return failed(4002)
    const csms = body.csms_id as string
    if (!/^[A-Za-z0-9]{1,20}$/.test(csms)) return failed(4020)
    if (!/^8801[3-9]\d{8}$/.test(body.msisdn as string)) return failed(4025)
    if ([...(body.sms as string)].length > 1000) return failed(4027)
    if (seen.has(csms)) return failed(4023)
    const scripted = s.fail(r, s.requests.length)
    if (scripted === 'hang') {
      seen.add(csms)
      s.accepted.push(r)
      return 'hang'
    }
    if (scripted !== null) return failed(scripted)
    seen.add(csms)
    s.accepted.push(r)
    return {
      code: 200,
      body: {
        status: 'SUCCESS',
        status_code: 200,
        error_message: '',
        smsinfo: [
          {
            sms_status: 'SUCCESS',
            status_message: 'Success',
            msisdn: body.msisdn,
            // BN for Unicode (Bengali) text, EN otherwise
            sms_type: [...(body.sms as string)].some((c) => c.charCodeAt(0) > 127) ? 'BN' : 'EN',
            sms_body: body.sms,
            csms_id: csms,
            reference_id: `5da2f0b5ba${++ref}`,
          },
        ],
      },
    }
  })
  return s
}

/** The BulkSMSBD stand-in for the key and sender id given. */
export async function startBulkSmsBd(creds: { apiKey: string; senderId: string }): Promise<ProviderStandIn> {
  let id = 70_000
  const failed = (code: number) => ({ code, body: { response_code: code, error_message: BULKSMSBD_MEANING[code] ?? 'Internal Error' } })
  const s = await serve((req, raw, record) => {
    const contentType = String(req.headers['content-type'] ?? '')
    if (req.method !== 'POST' || req.url !== '/api/smsapi' || !contentType.startsWith('application/x-www-form-urlencoded')) return failed(1003)
    const form = new URLSearchParams(raw)
    const fields = Object.fromEntries(form)
    const r = record({ path: req.url, contentType, fields })
    const names = [...new Set(form.keys())].sort().join(',')
    if (names !== 'api_key,message,number,senderid,type' || [...form.values()].some((v) => v === '') || fields.type !== 'text') return failed(1003)
    if (fields.api_key !== creds.apiKey) return failed(1011)
    if (fields.senderid !== creds.senderId) return failed(1002)
    if (!fields.number!.split(',').every((n) => /^8801[3-9]\d{8}$/.test(n))) return failed(1001)
    const scripted = s.fail(r, s.requests.length)
    if (scripted === 'hang') {
      s.accepted.push(r)
      return 'hang'
    }
    if (scripted !== null) return failed(scripted)
    s.accepted.push(r)
    return { code: 202, body: { response_code: 202, message_id: ++id, success_message: 'SMS Submitted Successfully', error_message: '' } }
  })
  s.url = `${s.url}/api/smsapi`
  return s
}
