/**
 * E-mail over SMTP with nodemailer: `smtp://user:pass@host:port` (STARTTLS when the
 * server offers it) or `smtps://…` (TLS from the first byte). Each message carries a
 * Message-ID made from its outbox id, so a resend after a crash mid-send is the same
 * message to the receiving side. A 5xx answer refuses the message for good; a 4xx
 * answer, a lost connection or a time-out is retried.
 */
import nodemailer from 'nodemailer'
import { DeliveryError, type Transport } from './transport.ts'

/** The SMTP settings (SMTP_URL, MAIL_FROM). */
export interface SmtpSettings {
  url: string
  from: string
}

/** The SMTP e-mail transport. */
export function smtpTransport(cfg: SmtpSettings, opts: { messageIdHost: string; timeoutMs: number }): Transport {
  const transporter = nodemailer.createTransport({
    url: cfg.url,
    connectionTimeout: opts.timeoutMs,
    greetingTimeout: opts.timeoutMs,
    socketTimeout: opts.timeoutMs,
    // Messages are built from stored rows only: never read a local file or fetch a URL into one.
    disableFileAccess: true,
    disableUrlAccess: true,
  })
  return {
    kind: 'smtp',
    async send(msg, signal) {
      const mail = {
        from: cfg.from,
        to: msg.to,
        subject: msg.subject ?? '',
        text: msg.text,
        ...(msg.html ? { html: msg.html } : {}),
        attachments: msg.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
        messageId: `<${msg.idempotencyKey}@${opts.messageIdHost}>`,
        signal,
      }
      try {
        const info = await transporter.sendMail(mail)
        const queued = /queued as ([^\s]+)/i.exec(String(info.response ?? ''))
        return { providerMessageId: queued?.[1] ?? info.messageId ?? null }
      } catch (err) {
        const e = err as Error & { code?: string; responseCode?: number; response?: string }
        const reply = typeof e.responseCode === 'number' ? e.responseCode : null
        const why = `SMTP ${reply ?? e.code ?? 'error'}: ${(e.response ?? e.message).replace(/\s+/g, ' ').slice(0, 300)}`
        // 5xx is the server's final no for this message; a failed login (535) is the operator's to fix, so keep trying.
        throw new DeliveryError(why, reply !== null && reply >= 500 && reply < 600 && e.code !== 'EAUTH')
      }
    },
    close() {
      transporter.close()
    },
  }
}
