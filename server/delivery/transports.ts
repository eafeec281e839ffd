/**
 * Each channel's transport, chosen from the settings: SMTP e-mail when SMTP_URL is
 * set, the HTTP SMS provider when SMS_API_URL is set, otherwise the development
 * console transport, which production never has.
 */
import type { ServerConfig } from '../config.ts'
import { smsTransport } from './sms.ts'
import { smtpTransport } from './smtp.ts'
import { consoleTransport, type Transports } from './transport.ts'

/** Options of `createTransports`. */
export interface TransportOptions {
  /** A send taking longer is abandoned and retried. */
  timeoutMs: number
  /** Where the console transport prints (development). */
  log?: (line: string) => void
}

/**
 * Picks each channel's transport from the settings: SMTP when `config.smtp`, the SMS
 * provider when `config.sms`, else the console (development only: in production a
 * missing channel throws, so a console transport can never be registered there).
 */
export function createTransports(config: ServerConfig, opts: TransportOptions): Transports {
  const host = new URL(config.publicUrl).hostname || 'localhost'
  return {
    EMAIL: config.smtp ? smtpTransport(config.smtp, { messageIdHost: host, timeoutMs: opts.timeoutMs }) : consoleTransport(config, opts.log),
    SMS: config.sms ? smsTransport(config.sms, { timeoutMs: opts.timeoutMs }) : consoleTransport(config, opts.log),
  }
}
