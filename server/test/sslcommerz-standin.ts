/**
 * A local stand-in of the SSLCommerz v4 endpoints, written from the public
 * developer documentation (developer.sslcommerz.com/doc/v4), for tests:
 *
 *   const ssl = await startStandIn();               // http://127.0.0.1:<port>, store "teststore" / "s3cret-pass"
 *   POST /gwprocess/v4/api.php                       session: SUCCESS + GatewayPageURL + sessionkey, or FAILED + failedreason
 *   GET  /gwprocess/v4/gw.php?Q=pay&SESSIONKEY=…     the payment page: a button per method its multi_card_name offers
 *   POST /gwprocess/v4/gw.php (SESSIONKEY, method)   the customer pays there: the IPN is sent, then a form posts the
 *                                                    signed fields back to success_url, as SSLCommerz returns the browser
 *   GET  /validator/api/validationserverAPI.php      order validation: VALID, then VALIDATED; INVALID_TRANSACTION for an unknown val_id
 *   GET  /validator/api/merchantTransIDvalidationAPI.php   transaction query by tran_id; with bank_tran_id the refund
 *        request, with refund_ref_id the refund query (only the documented request shape is accepted: the documented
 *        parameters plus v=1 and format=json, as SSLCommerz's own clients send them; anything else is INVALID_REQUEST)
 *
 *   const paid = ssl.pay(tranId, { risk: 1 });      // the customer pays: a val_id and the fields SSLCommerz posts
 *   ssl.pay(tranId, { method: 'nagad' });            // ... with a mobile wallet (card_brand MOBILEBANKING), as the session's
 *                                                    // multi_card_name allows (only documented values are accepted)
 *   await ssl.sendIpn(tranId);                       // posts the IPN form to the session's ipn_url (answers the HTTP status, 0 when unreachable)
 *   const back = ssl.giveUp(tranId, 'CANCELLED');   // the fields posted to fail_url / cancel_url
 *   ssl.tamper = { amount: '10.00' };                // validation and query answers disagree with the session
 *   ssl.delayMs = 2000; ssl.failWith = 500;          // a slow or broken validation / query API
 *   ssl.refuseSessions = 'reason';                   // the session API answers FAILED
 *   ssl.sign(fields)                                 // the fields with verify_sign / verify_key as SSLCommerz adds them
 *   ssl.refuseRefunds = 'reason';                    // the refund API answers status failed with this errorReason
 *   ssl.refundQueriesProcessing = 1;                 // refund queries that answer processing before refunded
 *   ssl.cancelRefunds = true;                        // refund queries answer cancelled
 *   ssl.refunds                                      // refunds accepted, by refund_trans_id (one per refund, whatever the retries)
 *   ssl.calls                                        // how often each endpoint was called
 *   await ssl.close();
 */
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export const STANDIN_STORE_ID = 'teststore'
export const STANDIN_STORE_PASSWORD = 's3cret-pass'

/**
 * multi_card_name values as SSLCommerz documents them (SSLCommerz-PHP and SSLCommerz-Laravel,
 * SslCommerzNotification: the gateway list and the group gateways).
 */
export const DOCUMENTED_CARD_NAMES = new Set([
  'brac_visa',
  'dbbl_visa',
  'city_visa',
  'ebl_visa',
  'sbl_visa',
  'brac_master',
  'dbbl_master',
  'city_master',
  'ebl_master',
  'sbl_master',
  'city_amex',
  'qcash',
  'dbbl_nexus',
  'bankasia',
  'abbank',
  'ibbl',
  'mtbl',
  'bkash',
  'dbblmobilebanking',
  'city',
  'upay',
  'tapnpay',
  'internetbank',
  'mobilebank',
  'othercard',
  'visacard',
  'mastercard',
  'amexcard',
])

/** How the customer paid at the gateway's page. */
export type StandInMethod = 'card' | 'bkash' | 'nagad' | 'rocket'

/**
 * What validation says about each method: card_type, card_issuer, card_brand as SSLCommerz answers them (its sample
 * answer for a card; "BKASH-BKash" / "BKash Mobile Banking", "NAGAD-Nagad", "DBBLMOBILEB-Dbbl Mobile Banking" /
 * "DBBL Mobile Banking", card_brand MOBILEBANKING and no card_no for mobile banking, as SSLCommerz's answers show them).
 */
const METHOD_FIELDS: Record<StandInMethod, { card_type: string; card_no: string; card_issuer: string; card_brand: string }> = {
  card: { card_type: 'VISA-Dutch Bangla', card_no: '432149XXXXXX0667', card_issuer: 'STANDARD CHARTERED BANK', card_brand: 'VISA' },
  bkash: { card_type: 'BKASH-BKash', card_no: '', card_issuer: 'BKash Mobile Banking', card_brand: 'MOBILEBANKING' },
  nagad: { card_type: 'NAGAD-Nagad', card_no: '', card_issuer: 'Nagad', card_brand: 'MOBILEBANKING' },
  rocket: { card_type: 'DBBLMOBILEB-Dbbl Mobile Banking', card_no: '', card_issuer: 'DBBL Mobile Banking', card_brand: 'MOBILEBANKING' },
}

const METHOD_LABEL: Record<StandInMethod, string> = { card: 'card', bkash: 'bKash', nagad: 'Nagad', rocket: 'Rocket' }

/** The methods a session's multi_card_name lets the customer use on the page (every one when none was sent). */
function methodsOffered(multiCardName: string | undefined): Set<StandInMethod> {
  if (!multiCardName) return new Set(['card', 'bkash', 'nagad', 'rocket'])
  const names = multiCardName.split(',')
  const out = new Set<StandInMethod>()
  if (names.includes('bkash') || names.includes('mobilebank')) out.add('bkash')
  if (names.includes('dbblmobilebanking') || names.includes('mobilebank')) out.add('rocket')
  if (names.includes('mobilebank')) out.add('nagad')
  if (names.some((n) => !['bkash', 'dbblmobilebanking', 'mobilebank', 'internetbank', 'bankasia', 'city', 'mtbl', 'abbank'].includes(n)))
    out.add('card')
  return out
}

/** One transaction attempt at the gateway. */
export interface StandInTransaction {
  valId: string | null
  status: 'VALID' | 'FAILED' | 'CANCELLED'
  amount: string
  riskLevel: 0 | 1
  bankTranId: string
  tranDate: string
  /** Validation calls so far (the first answers VALID, later ones VALIDATED). */
  validations: number
  /** How it was paid. */
  method: StandInMethod
}

/** A refund the refund API accepted. */
export interface StandInRefund {
  refundTransId: string
  refundRefId: string
  bankTranId: string
  tranId: string
  amount: string
  remarks: string
  refeId: string
  initiatedOn: string
  /** Refund queries so far. */
  queries: number
  /** Answered cancelled by a refund query: nothing was refunded, the amount can be refunded again. */
  cancelled: boolean
}

/** A session opened through the session API. */
export interface StandInSession {
  tranId: string
  sessionKey: string
  /** Everything the merchant posted, store password included (tests check what we send). */
  fields: Record<string, string>
  transactions: StandInTransaction[]
}

export interface StandIn {
  url: string
  storeId: string
  storePassword: string
  /** Sessions by tran_id (the latest session of a tran_id wins). */
  sessions: Map<string, StandInSession>
  /** Session API calls per tran_id. */
  sessionCalls: Map<string, number>
  calls: { session: number; validation: number; query: number; ipn: number; refund: number; refundQuery: number }
  /** Refunds accepted, by refund_trans_id. */
  refunds: Map<string, StandInRefund>
  /** Makes the refund API answer status failed with this errorReason. */
  refuseRefunds: string | null
  /** How many refund queries answer processing before refunded. */
  refundQueriesProcessing: number
  /** Makes the refund query answer cancelled. */
  cancelRefunds: boolean
  /** Fields changed in every validation and query answer (another amount, currency or tran_id). */
  tamper: { amount?: string; currency?: string; tranId?: string } | null
  /** Delay before the validation and query APIs answer. */
  delayMs: number
  /** Makes the validation and query APIs answer with this HTTP status, or drop the connection. */
  failWith: number | 'drop' | null
  /** Makes the session API answer FAILED with this failedreason. */
  refuseSessions: string | null
  /** The customer pays the session of `tranId`; answers the val_id and the form SSLCommerz posts to success_url and ipn_url. */
  pay(tranId: string, opts?: { risk?: 0 | 1; amount?: string; method?: StandInMethod }): { valId: string; fields: Record<string, string> }
  /** The payment fails or the customer cancels; answers the form SSLCommerz posts to fail_url or cancel_url. */
  giveUp(tranId: string, status: 'FAILED' | 'CANCELLED'): Record<string, string>
  /** `fields` signed as SSLCommerz signs its forms: verify_key lists every field, verify_sign their md5 with the store password's. */
  sign(fields: Record<string, string>): Record<string, string>
  /** Posts the IPN of the latest transaction of `tranId` to `to` (default: the session's ipn_url); answers the HTTP status, 0 when nobody answered. */
  sendIpn(tranId: string, to?: string): Promise<number>
  close(): Promise<void>
}

const money = (v: string) => Number(v).toFixed(2)

/** Starts the stand-in on a free 127.0.0.1 port. */
export async function startStandIn(opts: { port?: number } = {}): Promise<StandIn> {
  const sessions = new Map<string, StandInSession>()
  const sessionCalls = new Map<string, number>()
  const byValId = new Map<string, { session: StandInSession; tx: StandInTransaction }>()
  const calls = { session: 0, validation: 0, query: 0, ipn: 0, refund: 0, refundQuery: 0 }
  const refunds = new Map<string, StandInRefund>()
  const stamp = () => new Date(Date.now() + 6 * 3600_000).toISOString().replace('T', ' ').slice(0, 19)

  // The refund API (developer.sslcommerz.com/doc/v4 "Initiate the Refund"; sslcommerz-lts initiateRefund):
  // bank_tran_id, refund_trans_id, refund_amount, refund_remarks, refe_id (optional), store_id, store_passwd, v, format.
  const REFUND_KEYS = new Set([
    'bank_tran_id',
    'refund_trans_id',
    'refund_amount',
    'refund_remarks',
    'refe_id',
    'store_id',
    'store_passwd',
    'v',
    'format',
  ])
  const refund = (q: URLSearchParams): Record<string, unknown> => {
    calls.refund++
    const bad = (why: string) => ({ APIConnect: 'INVALID_REQUEST', status: 'failed', errorReason: why })
    const unknown = [...q.keys()].filter((k) => !REFUND_KEYS.has(k))
    if (unknown.length) return bad(`unknown parameter(s) ${unknown.join(', ')}`)
    for (const k of ['bank_tran_id', 'refund_trans_id', 'refund_amount', 'refund_remarks', 'format'])
      if (!q.get(k)?.trim()) return bad(`${k} is required`)
    if ([...new Set(q.keys())].some((k) => q.getAll(k).length > 1)) return bad('a parameter is repeated')
    if (q.get('format') !== 'json') return bad('format must be json')
    if (q.get('v') !== '1') return bad('v must be 1')
    if (!/^\d{1,9}\.\d{2}$/.test(q.get('refund_amount')!) || Number(q.get('refund_amount')) <= 0)
      return bad('refund_amount must be a decimal amount like 720.00')
    const bankTranId = q.get('bank_tran_id')!
    const refundTransId = q.get('refund_trans_id')!
    const answer = (status: string, r: StandInRefund | null, errorReason = '') => ({
      APIConnect: 'DONE',
      bank_tran_id: bankTranId,
      trans_id: r?.tranId ?? '',
      refund_ref_id: r?.refundRefId ?? '',
      status,
      errorReason,
    })
    const known = refunds.get(refundTransId)
    // The same refund_trans_id again: the refund already initiated, never a second one.
    if (known) return answer('processing', known, 'Refund request already initiated')
    if (ssl.refuseRefunds) return answer('failed', null, ssl.refuseRefunds)
    const found = [...sessions.values()]
      .flatMap((s) => s.transactions.map((tx) => ({ s, tx })))
      .find((x) => x.tx.bankTranId === bankTranId && x.tx.status === 'VALID')
    if (!found) return answer('failed', null, 'Invalid bank_tran_id')
    const refunded = [...refunds.values()].filter((r) => r.bankTranId === bankTranId && !r.cancelled).reduce((a, r) => a + Number(r.amount), 0)
    if (refunded + Number(q.get('refund_amount')) > Number(found.tx.amount))
      return answer('failed', null, 'Refund amount exceeds the transaction amount')
    const r: StandInRefund = {
      refundTransId,
      refundRefId: crypto.randomBytes(8).toString('hex'),
      bankTranId,
      tranId: found.s.tranId,
      amount: q.get('refund_amount')!,
      remarks: q.get('refund_remarks')!,
      refeId: q.get('refe_id') ?? '',
      initiatedOn: stamp(),
      queries: 0,
      cancelled: false,
    }
    refunds.set(refundTransId, r)
    return answer('success', r)
  }
  // The refund query ("Query the Refund Status"; sslcommerz-lts refundQuery): refund_ref_id, store_id, store_passwd, v=1, format=json.
  const refundQuery = (q: URLSearchParams): Record<string, unknown> => {
    calls.refundQuery++
    const bad = queryShape(q, 'refund_ref_id')
    if (bad) return bad
    const r = [...refunds.values()].find((x) => x.refundRefId === q.get('refund_ref_id'))
    if (!r) return { APIConnect: 'DONE', status: 'failed', errorReason: 'Invalid refund_ref_id', refund_ref_id: q.get('refund_ref_id') }
    r.queries++
    const status = ssl.cancelRefunds || r.cancelled ? 'cancelled' : r.queries <= ssl.refundQueriesProcessing ? 'processing' : 'refunded'
    r.cancelled = status === 'cancelled'
    return {
      APIConnect: 'DONE',
      bank_tran_id: r.bankTranId,
      tran_id: r.tranId,
      refund_ref_id: r.refundRefId,
      initiated_on: r.initiatedOn,
      refunded_on: status === 'refunded' ? stamp() : '',
      status,
      errorReason: status === 'cancelled' ? 'Refund cancelled by the bank' : '',
    }
  }

  /**
   * A query's shape (transaction query by tran_id, refund query): its one documented key, store_id, store_passwd,
   * v=1 and format=json (sslcommerz-lts transactionQueryByTransactionId, refundQuery), each once; null when right.
   */
  const queryShape = (q: URLSearchParams, key: string): Record<string, unknown> | null => {
    const allowed = new Set([key, 'store_id', 'store_passwd', 'v', 'format'])
    const unknown = [...q.keys()].filter((k) => !allowed.has(k))
    const why = unknown.length
      ? `unknown parameter(s) ${unknown.join(', ')}`
      : [...allowed].some((k) => q.getAll(k).length !== 1)
        ? `${[...allowed].join(', ')} are each required once`
        : q.get('v') !== '1'
          ? 'v must be 1'
          : q.get('format') !== 'json'
            ? 'format must be json'
            : null
    return why ? { APIConnect: 'INVALID_REQUEST', status: 'failed', errorReason: why } : null
  }

  const describe = (s: StandInSession, tx: StandInTransaction, status: string, tampered = true): Record<string, string> => {
    const t = (tampered && ssl.tamper) || {}
    const currency = t.currency ?? s.fields.currency ?? 'BDT'
    const amount = t.amount ?? tx.amount
    return {
      status,
      tran_date: tx.tranDate,
      tran_id: t.tranId ?? s.tranId,
      ...(tx.valId ? { val_id: tx.valId } : {}),
      amount,
      store_amount: money(String(Number(amount) * 0.975)),
      currency,
      bank_tran_id: tx.bankTranId,
      ...METHOD_FIELDS[tx.method],
      card_issuer_country: 'Bangladesh',
      card_issuer_country_code: 'BD',
      currency_type: currency,
      currency_amount: amount,
      currency_rate: '1.0000',
      base_fair: '0.00',
      value_a: s.fields.value_a ?? '',
      value_b: s.fields.value_b ?? '',
      value_c: s.fields.value_c ?? '',
      value_d: s.fields.value_d ?? '',
      risk_level: String(tx.riskLevel),
      risk_title: tx.riskLevel === 1 ? 'Risky' : 'Safe',
    }
  }

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }

  const credentialsOk = (q: URLSearchParams | Record<string, string>) => {
    const get = (k: string) => (q instanceof URLSearchParams ? q.get(k) : q[k])
    return get('store_id') === STANDIN_STORE_ID && get('store_passwd') === STANDIN_STORE_PASSWORD
  }

  const openSession = (f: Record<string, string>): Record<string, unknown> => {
    if (!credentialsOk(f)) return { status: 'FAILED', failedreason: 'Store Credential Error Or Store is De-active' }
    if (ssl.refuseSessions) return { status: 'FAILED', failedreason: ssl.refuseSessions }
    const missing = [
      'total_amount',
      'currency',
      'tran_id',
      'success_url',
      'fail_url',
      'cancel_url',
      'cus_name',
      'cus_email',
      'cus_phone',
      'product_name',
      'product_category',
      'product_profile',
      'shipping_method',
    ].filter((k) => !f[k] || !f[k]!.trim())
    if (missing.length) return { status: 'FAILED', failedreason: `Invalid Information: ${missing.join(', ')}` }
    if (!/^\d{1,10}(\.\d{1,2})?$/.test(f.total_amount!) || Number(f.total_amount) < 10 || Number(f.total_amount) > 500000) {
      return { status: 'FAILED', failedreason: 'Invalid amount: the transaction amount must be from 10.00 BDT to 500000.00 BDT' }
    }
    if (!/^[A-Z]{3}$/.test(f.currency!)) return { status: 'FAILED', failedreason: 'Invalid currency' }
    if (f.tran_id!.length > 30) return { status: 'FAILED', failedreason: 'tran_id is longer than 30 characters' }
    if (f.multi_card_name !== undefined && !f.multi_card_name.split(',').every((n) => DOCUMENTED_CARD_NAMES.has(n))) {
      return { status: 'FAILED', failedreason: `Invalid multi_card_name: ${f.multi_card_name}` }
    }
    for (const k of ['success_url', 'fail_url', 'cancel_url', 'ipn_url']) {
      if (f[k] && !/^https?:\/\/\S+$/.test(f[k]!)) return { status: 'FAILED', failedreason: `Invalid ${k}` }
    }
    sessionCalls.set(f.tran_id!, (sessionCalls.get(f.tran_id!) ?? 0) + 1)
    const sessionKey = crypto.randomBytes(16).toString('hex').toUpperCase()
    sessions.set(f.tran_id!, { tranId: f.tran_id!, sessionKey, fields: { ...f }, transactions: [] })
    return {
      status: 'SUCCESS',
      failedreason: '',
      sessionkey: sessionKey,
      gw: {
        visa: 'city_visa,ebl_visa,visacard',
        master: 'city_master,ebl_master',
        amex: 'city_amex',
        othercards: '',
        internetbanking: 'city,bankasia',
        mobilebanking: 'DBBLMobileBanking,bkash_api',
      },
      redirectGatewayURL: `${ssl.url}/gwprocess/v4/bankgw/indexhtml.php?mamount=${f.total_amount}&ssl_id=${sessionKey}&Q=REDIRECT&SESSIONKEY=${sessionKey}&tran_type=success&cardname=`,
      GatewayPageURL: `${ssl.url}/gwprocess/v4/gw.php?Q=pay&SESSIONKEY=${sessionKey}`,
      storeBanner: '',
      storeLogo: '',
      desc: [],
      is_direct_pay_enable: '0',
    }
  }

  const readBody = (req: http.IncomingMessage) =>
    new Promise<string>((resolve) => {
      let b = ''
      req.on('data', (c: Buffer) => (b += c.toString()))
      req.on('end', () => resolve(b))
    })

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin')
    const q = url.searchParams
    if (req.method === 'POST' && url.pathname === '/gwprocess/v4/api.php') {
      calls.session++
      const f = Object.fromEntries(new URLSearchParams(await readBody(req)))
      return json(res, 200, openSession(f))
    }
    if (req.method === 'GET' && url.pathname === '/gwprocess/v4/gw.php') {
      const s = [...sessions.values()].find((x) => x.sessionKey === q.get('SESSIONKEY'))
      res.writeHead(s ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
      const buttons = s
        ? [...methodsOffered(s.fields.multi_card_name)].map((m) => `<button name="method" value="${m}">Pay with ${METHOD_LABEL[m]}</button>`).join('')
        : ''
      return res.end(
        s
          ? `<!doctype html><html lang="en"><title>SSLCommerz</title><main><h1>Pay ${s.fields.total_amount} ${s.fields.currency} to ${STANDIN_STORE_ID}</h1>` +
              `<form method="post" action="/gwprocess/v4/gw.php"><input type="hidden" name="SESSIONKEY" value="${s.sessionKey}">${buttons}</form></main></html>`
          : 'Invalid session',
      )
    }
    if (req.method === 'POST' && url.pathname === '/gwprocess/v4/gw.php') {
      const f = new URLSearchParams(await readBody(req))
      const s = [...sessions.values()].find((x) => x.sessionKey === f.get('SESSIONKEY'))
      const method = f.get('method') as StandInMethod
      if (!s || !methodsOffered(s.fields.multi_card_name).has(method)) {
        res.writeHead(400, { 'content-type': 'text/plain' })
        return res.end('Invalid request')
      }
      const paid = ssl.pay(s.tranId, { method })
      await ssl.sendIpn(s.tranId)
      const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
      const inputs = Object.entries(paid.fields)
        .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
        .join('')
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      return res.end(
        `<!doctype html><html lang="en"><title>SSLCommerz</title><main><h1>Payment successful</h1>` +
          `<form method="post" action="${esc(s.fields.success_url!)}">${inputs}<button>Return to the merchant</button></form></main></html>`,
      )
    }
    const isValidation = url.pathname === '/validator/api/validationserverAPI.php'
    const isQuery = url.pathname === '/validator/api/merchantTransIDvalidationAPI.php'
    if (req.method === 'GET' && (isValidation || isQuery)) {
      const isRefund = isQuery && (q.has('bank_tran_id') || q.has('refund_ref_id'))
      if (isValidation) calls.validation++
      else if (!isRefund) calls.query++
      if (ssl.delayMs > 0) await new Promise((r) => setTimeout(r, ssl.delayMs))
      if (ssl.failWith === 'drop') return req.socket.destroy()
      if (ssl.failWith) return json(res, ssl.failWith, { error: 'stand-in failure' })
      if (!credentialsOk(q)) return json(res, 200, { APIConnect: 'FAILED' })
      if (isQuery && q.has('bank_tran_id')) return json(res, 200, refund(q))
      if (isQuery && q.has('refund_ref_id')) return json(res, 200, refundQuery(q))
      if (isValidation) {
        const found = byValId.get(q.get('val_id') ?? '')
        if (!found) return json(res, 200, { status: 'INVALID_TRANSACTION' })
        const { session, tx } = found
        tx.validations++
        const status = tx.status === 'VALID' ? (tx.validations === 1 ? 'VALID' : 'VALIDATED') : tx.status
        return json(res, 200, {
          ...describe(session, tx, status),
          APIConnect: 'DONE',
          validated_on: new Date().toISOString().replace('T', ' ').slice(0, 19),
          gw_version: '',
        })
      }
      const badQuery = queryShape(q, 'tran_id')
      if (badQuery) return json(res, 200, { APIConnect: badQuery.APIConnect })
      const s = sessions.get(q.get('tran_id') ?? '')
      const element = s
        ? s.transactions.map((tx) => ({
            ...describe(s, tx, tx.status === 'VALID' && tx.validations > 0 ? 'VALIDATED' : tx.status),
            ...(tx.status !== 'VALID' ? { error: `Transaction ${tx.status.toLowerCase()}` } : {}),
          }))
        : []
      return json(res, 200, { APIConnect: 'DONE', no_of_trans_found: element.length, element })
    }
    res.writeHead(404, { 'content-type': 'text/plain' })
    res.end('not found')
  })
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve))

  const mustSession = (tranId: string) => {
    const s = sessions.get(tranId)
    if (!s) throw new Error(`stand-in: no session for tran_id ${tranId}`)
    return s
  }

  const ssl: StandIn = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    storeId: STANDIN_STORE_ID,
    storePassword: STANDIN_STORE_PASSWORD,
    sessions,
    sessionCalls,
    calls,
    refunds,
    refuseRefunds: null,
    refundQueriesProcessing: 1,
    cancelRefunds: false,
    tamper: null,
    delayMs: 0,
    failWith: null,
    refuseSessions: null,
    pay(tranId, opts = {}) {
      const s = mustSession(tranId)
      const offered = methodsOffered(s.fields.multi_card_name)
      // A page narrowed to one wallet pays with it; otherwise the card unless the test says which.
      const method = opts.method ?? (offered.size === 1 ? [...offered][0]! : 'card')
      if (!offered.has(method)) throw new Error(`stand-in: multi_card_name ${s.fields.multi_card_name} does not offer ${method}`)
      const tx: StandInTransaction = {
        method,
        valId: crypto.randomBytes(12).toString('hex').slice(0, 8) + Date.now().toString(36).toUpperCase(),
        status: 'VALID',
        amount: opts.amount ?? money(s.fields.total_amount!),
        riskLevel: opts.risk ?? 0,
        bankTranId: crypto.randomBytes(10).toString('hex'),
        tranDate: new Date().toISOString().replace('T', ' ').slice(0, 19),
        validations: 0,
      }
      s.transactions.push(tx)
      byValId.set(tx.valId!, { session: s, tx })
      return { valId: tx.valId!, fields: ipnFields(s, tx) }
    },
    giveUp(tranId, status) {
      const s = mustSession(tranId)
      const tx: StandInTransaction = {
        method: 'card',
        valId: null,
        status,
        amount: money(s.fields.total_amount!),
        riskLevel: 0,
        bankTranId: '',
        tranDate: new Date().toISOString().replace('T', ' ').slice(0, 19),
        validations: 0,
      }
      s.transactions.push(tx)
      return ipnFields(s, tx)
    },
    sign: (fields) => sign(fields),
    async sendIpn(tranId, to) {
      const s = mustSession(tranId)
      const tx = s.transactions.at(-1)
      if (!tx) throw new Error(`stand-in: nothing to notify for ${tranId}`)
      calls.ipn++
      try {
        const res = await fetch(to ?? s.fields.ipn_url!, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(ipnFields(s, tx)).toString(),
          redirect: 'manual',
        })
        await res.text()
        return res.status
      } catch {
        return 0
      }
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }

  /** The IPN / browser form of a transaction, with the verify_sign SSLCommerz adds (md5 of the fields and the md5 of the store password). */
  function ipnFields(s: StandInSession, tx: StandInTransaction): Record<string, string> {
    const base: Record<string, string> = { ...describe(s, tx, tx.status, false), store_id: STANDIN_STORE_ID }
    if (tx.status !== 'VALID') base.error = tx.status === 'CANCELLED' ? 'Cancelled by the customer' : 'Declined by the issuer'
    return sign(base)
  }

  /**
   * SSLCommerz's signature, as its PHP library checks it (SSLCommerz-PHP SslCommerzNotification::SSLCOMMERZ_hash_varify):
   * md5 of the verify_key fields and store_passwd = md5(store password), sorted by name, joined as name=value with &.
   */
  function sign(fields: Record<string, string>): Record<string, string> {
    const base = Object.fromEntries(Object.entries(fields).filter(([k]) => !k.startsWith('verify_')))
    const keys = Object.keys(base)
    const signed: Record<string, string> = { ...base, store_passwd: crypto.createHash('md5').update(STANDIN_STORE_PASSWORD).digest('hex') }
    const text = [...keys, 'store_passwd']
      .sort()
      .map((k) => `${k}=${signed[k]}`)
      .join('&')
    return { ...base, verify_sign: crypto.createHash('md5').update(text).digest('hex'), verify_key: keys.join(',') }
  }

  return ssl
}
