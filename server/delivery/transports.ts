/**
 * Each channel's transport, chosen from the settings: SMTP e-mail when SMTP_URL is
 * set, the SMS provider of SMS_PROVIDER (and SMS_FALLBACK_PROVIDER's as the second
 * one) when set, otherwise the development console transport, which production
 * never has.
 */
import type { ServerConfig } from '../config.ts'
import { smsProviderTransport } from './sms.ts'
import { smtpTransport } from './smtp.ts'
import { consoleTransport, type Transports } from './transport.ts'

/** Options of `createTransports`. */
export interface TransportOptions {
  /** A send taking longer is abandoned and retried. */
  timeoutMs: number
  /** Where the console transport prints (development). */
  log?: (line: string) => void
  /** Where the mail channel reports going down and up (default console.warn). */
  warn?: (line: string) => void
}

/**
 * Picks each channel's transport from the settings: SMTP when `config.smtp`, the SMS
 * provider when `config.sms` (with `config.smsFallback` as its fallback), else the
 * console (development only: in production a missing channel throws, so a console
 * transport can never be registered there).
 */
export function createTransports(config: ServerConfig, opts: TransportOptions): Transports {
  const host = new URL(config.publicUrl).hostname || 'localhost'
  return {
    EMAIL: config.smtp
      ? smtpTransport(config.smtp, { messageIdHost: host, timeoutMs: opts.timeoutMs, ...(opts.warn ? { log: opts.warn } : {}) })
      : consoleTransport(config, opts.log),
    SMS: config.sms ? smsProviderTransport(config.sms, { timeoutMs: opts.timeoutMs }) : consoleTransport(config, opts.log),
    smsFallback: config.sms && config.smsFallback ? smsProviderTransport(config.smsFallback, { timeoutMs: opts.timeoutMs }) : null,
  }
}
