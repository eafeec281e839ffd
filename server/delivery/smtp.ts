/**
 * E-mail over SMTP with nodemailer: `smtp://user:pass@host:port` (STARTTLS when the
 * server offers it) or `smtps://…` (TLS from the first byte), through a small pool of
 * kept-open connections. Each message carries a Message-ID made from its outbox id,
 * so a resend after a crash mid-send is the same message to the receiving side. A
 * 5xx answer refuses the message for good; a 4xx answer, a lost connection or a
 * time-out is retried. A refused login (535, EAUTH) is the operator's to fix: the
 * message fails at once as a configuration error instead of being retried for an
 * hour.
 *
 * `check()` opens a connection and logs in (nodemailer's verify); the server runs it
 * at start. Until a check or a send succeeds after a failed one, `healthy()` is
 * false and /readyz reports the mail channel down; a failed check is tried again
 * after 5 s, then 10 s, … at most every 5 min.
 */
import nodemailer from 'nodemailer'
import { DeliveryError, type Transport } from './transport.ts'

/** The SMTP settings (SMTP_URL, MAIL_FROM). */
export interface SmtpSettings {
  url: string
  from: string
}

/** Connections the pool keeps open at most. */
export const SMTP_POOL_CONNECTIONS = 3

/** The SMTP transport: `check()` logs in once (null when it worked, else the reason, also logged); failed checks are repeated until one works. */
export type SmtpTransport = Transport & { check(): Promise<string | null> }

/** Whether an nodemailer error is a refused login (a wrong user or password). */
function isAuthFailure(e: { code?: string; responseCode?: number }): boolean {
  return e.code === 'EAUTH' || e.responseCode === 535 || e.responseCode === 534
}

/** The reason an SMTP error gives, on one line. */
function reasonOf(err: unknown): { text: string; reply: number | null; auth: boolean } {
  const e = err as Error & { code?: string; responseCode?: number; response?: string }
  const reply = typeof e.responseCode === 'number' ? e.responseCode : null
  const auth = isAuthFailure(e)
  const text = `SMTP ${reply ?? e.code ?? 'error'}: ${(e.response ?? e.message ?? String(err)).replace(/\s+/g, ' ').slice(0, 300)}`
  return { text: auth ? `${text} (configuration error: the user or password in SMTP_URL is refused)` : text, reply, auth }
}

/** The SMTP e-mail transport. */
export function smtpTransport(
  cfg: SmtpSettings,
  opts: { messageIdHost: string; timeoutMs: number; log?: (line: string) => void; recheckMs?: number },
): SmtpTransport {
  const log = opts.log ?? ((line: string) => console.warn(line))
  const transporter = nodemailer.createTransport({
    url: cfg.url,
    pool: true,
    maxConnections: SMTP_POOL_CONNECTIONS,
    connectionTimeout: opts.timeoutMs,
    greetingTimeout: opts.timeoutMs,
    socketTimeout: opts.timeoutMs,
    // Messages are built from stored rows only: never read a local file or fetch a URL into one.
    disableFileAccess: true,
    disableUrlAccess: true,
  })
  let up = true
  let closed = false
  let recheck: NodeJS.Timeout | null = null
  let wait = opts.recheckMs ?? 5000

  const down = (why: string) => {
    if (up) log(`[delivery] mail channel down: ${why}`)
    up = false
    if (!recheck && !closed) {
      recheck = setTimeout(() => {
        recheck = null
        void check()
      }, wait)
      recheck.unref()
      wait = Math.min(wait * 2, 5 * 60_000)
    }
  }
  const working = () => {
    if (!up) log('[delivery] mail channel up again: the SMTP server accepted our login')
    up = true
    wait = opts.recheckMs ?? 5000
  }
  const check = async (): Promise<string | null> => {
    try {
      await transporter.verify()
      working()
      return null
    } catch (err) {
      const why = reasonOf(err).text
      down(why)
      return why
    }
  }

  return {
    kind: 'smtp',
    name: 'smtp',
    check,
    healthy: () => up,
    async send(msg) {
      const mail = {
        from: cfg.from,
        to: msg.to,
        subject: msg.subject ?? '',
        text: msg.text,
        ...(msg.html ? { html: msg.html } : {}),
        attachments: msg.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
        messageId: `<${msg.idempotencyKey}@${opts.messageIdHost}>`,
      }
      try {
        const info = await transporter.sendMail(mail)
        working()
        const queued = /queued as ([^\s]+)/i.exec(String(info.response ?? ''))
        return { providerMessageId: queued?.[1] ?? info.messageId ?? null }
      } catch (err) {
        const { text, reply, auth } = reasonOf(err)
        if (auth) {
          down(text)
          throw new DeliveryError(text, true, undefined, { config: true })
        }
        // 5xx is the server's final no for this message.
        throw new DeliveryError(text, reply !== null && reply >= 500 && reply < 600)
      }
    },
    close() {
      closed = true
      if (recheck) clearTimeout(recheck)
      transporter.close()
    },
  }
}
