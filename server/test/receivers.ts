/**
 * Real receiving ends for delivery tests, on 127.0.0.1: an SMTP server
 * (smtp-server) that parses what arrives (mailparser), and an HTTP SMS provider
 * whose answers the test scripts.
 *
 *   const smtp = await startSmtpReceiver();          // SMTP_URL = smtp.url
 *   await smtp.waitFor(1); smtp.mails[0].parsed.subject
 *   const sms = await startSmsReceiver();            // SMS_API_URL = sms.url
 *   sms.answer = (req, n) => (n === 1 ? { status: 503 } : { status: 200, body: { id: 'x' } });
 *   await sms.waitFor(2); sms.requests[1].body.to
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/** Waits until `check()` holds, polling; throws with `what` after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** One e-mail as the SMTP server received it. */
export interface ReceivedMail {
  at: number
  envelope: { from: string; to: string[] }
  /** The connection was TLS (smtps). */
  secure: boolean
  parsed: ParsedMail
  /** The id this server answered with ("queued as <id>"). */
  queueId: string
}

export interface SmtpReceiver {
  port: number
  /** smtp://127.0.0.1:<port> (or smtps://…?tls.rejectUnauthorized=false when secure). */
  url: string
  mails: ReceivedMail[]
  /** Reply code refusing a recipient (e.g. 550, 451), or null to accept; default accepts all. */
  rejectRecipient: (address: string) => number | null
  /** With `auth`: the password the server accepts for its user now (change it to let a login through). */
  password: string
  /** Connections opened so far, and the most open at once. */
  connections: number
  maxOpen: number
  waitFor(n: number, timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

/**
 * Starts an SMTP server (no auth needed, no STARTTLS; TLS from the start when `secure`,
 * with smtp-server's own test certificate); `delayMs` holds each answer to DATA that long.
 * With `auth`, a login is required (AUTH PLAIN/LOGIN over the plain connection) and only
 * `auth.user` with `receiver.password` gets in (535 otherwise).
 */
export async function startSmtpReceiver(
  opts: { secure?: boolean; delayMs?: number; auth?: { user: string; pass: string } } = {},
): Promise<SmtpReceiver> {
  let seq = 0
  let open = 0
  const receiver: SmtpReceiver = {
    port: 0,
    url: '',
    mails: [],
    rejectRecipient: () => null,
    password: opts.auth?.pass ?? '',
    connections: 0,
    maxOpen: 0,
    waitFor: (n, timeoutMs) => until(() => receiver.mails.length >= n, `${n} e-mail(s) at the SMTP server (got ${receiver.mails.length})`, timeoutMs),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
  const server = new SMTPServer({
    secure: opts.secure ?? false,
    authOptional: !opts.auth,
    allowInsecureAuth: true,
    disabledCommands: opts.auth ? ['STARTTLS'] : opts.secure ? ['AUTH'] : ['STARTTLS', 'AUTH'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === receiver.password) return callback(null, { user: auth.username })
      callback(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }))
    },
    onConnect(_session, callback) {
      receiver.connections++
      receiver.maxOpen = Math.max(receiver.maxOpen, ++open)
      callback()
    },
    onClose() {
      open--
    },
    onRcptTo(address, _session, callback) {
      const code = receiver.rejectRecipient(address.address)
      if (code === null) return callback()
      const err = Object.assign(new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: code })
      callback(err)
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks)
        const queueId = `Q${++seq}`
        simpleParser(raw)
          .then((parsed) => {
            receiver.mails.push({
              at: Date.now(),
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              secure: session.secure,
              parsed,
              queueId,
            })
            setTimeout(() => callback(null, `OK queued as ${queueId}`), opts.delayMs ?? 0)
          })
          .catch((err: Error) => callback(err))
      })
    },
  })
  server.on('error', () => undefined)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  receiver.port = (server.server.address() as AddressInfo).port
  receiver.url = opts.secure ? `smtps://127.0.0.1:${receiver.port}/?tls.rejectUnauthorized=false` : `smtp://127.0.0.1:${receiver.port}`
  return receiver
}

/** One request the SMS provider received. */
export interface SmsRequest {
  at: number
  method: string
  headers: http.IncomingHttpHeaders
  body: { to?: string; text?: string; sender?: string } & Record<string, unknown>
}

/** What the provider answers: a status with a JSON body (after `delayMs`), or no answer at all. */
export type SmsAnswer = { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number } | 'hang'

export interface SmsReceiver {
  url: string
  requests: SmsRequest[]
  /** Answers request number `n` (1-based); default 200 `{ id: 'sms-<n>' }`. */
  answer: (req: SmsRequest, n: number) => SmsAnswer
  /** Unique Idempotency-Key values received. */
  keys(): Set<string>
  waitFor(n: number, timeoutMs?: number): Promise<void>
  /** Answers every request held by 'hang' with this. */
  release(answer: { status: number; body?: unknown }): void
  close(): Promise<void>
}

/** Starts a local HTTP SMS provider on a free 127.0.0.1 port (path /send). */
export async function startSmsReceiver(port = 0): Promise<SmsReceiver> {
  const held: http.ServerResponse[] = []
  const sockets = new Set<Socket>()
  const reply = (res: http.ServerResponse, a: { status: number; body?: unknown; headers?: Record<string, string> }) => {
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers })
    res.end(a.body === undefined ? '' : JSON.stringify(a.body))
  }
  const receiver: SmsReceiver = {
    url: '',
    requests: [],
    answer: (_req, n) => ({ status: 200, body: { id: `sms-${n}` } }),
    keys: () => new Set(receiver.requests.map((r) => String(r.headers['idempotency-key']))),
    waitFor: (n, timeoutMs) => until(() => receiver.requests.length >= n, `${n} SMS request(s) (got ${receiver.requests.length})`, timeoutMs),
    release(a) {
      for (const res of held.splice(0)) if (!res.writableEnded && !res.destroyed) reply(res, a)
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      let body: SmsRequest['body'] = {}
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        // recorded as empty
      }
      const r: SmsRequest = { at: Date.now(), method: req.method ?? '', headers: req.headers, body }
      receiver.requests.push(r)
      const a = receiver.answer(r, receiver.requests.length)
      if (a === 'hang') held.push(res)
      else if (a.delayMs) setTimeout(() => reply(res, a), a.delayMs)
      else reply(res, a)
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`
  return receiver
}
