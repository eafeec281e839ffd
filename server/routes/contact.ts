/**
 * The contact form (contact-messages.ts). It needs no login, so it is limited (in the
 * database, across processes) per client address and per destination e-mail.
 */
import type { FastifyInstance } from 'fastify'
import { saveContactMessage } from '../company/contact-messages.ts'
import type { Deps } from '../core.ts'
import { handle } from '../http/handle.ts'
import { addressKey, take, type Limit } from '../http/limits.ts'

/** Contact messages one client address may send. */
export const CONTACT_PER_ADDRESS: Limit = {
  bucket: 'contact-per-address',
  max: 5,
  windowMs: 60 * 60_000,
  reason: 'Too many messages from your network. Try again in {minutes} minutes.',
}

/** Receipts one e-mail address may be sent. */
export const RECEIPTS_PER_EMAIL: Limit = {
  bucket: 'contact-receipts-per-email',
  max: 3,
  windowMs: 24 * 60 * 60_000,
  reason: 'Too many messages were sent for this e-mail address today. Try again in {minutes} minutes.',
}

/** Registers POST /reservation/contactUs. */
export function register(app: FastifyInstance, deps: Deps): void {
  handle(app, deps, 'contactUs', async ({ body, req }) => {
    const now = deps.now()
    const perAddress = await take(deps.db, CONTACT_PER_ADDRESS, addressKey(req.ip, deps.config.ipv6ClientPrefix), now)
    try {
      await take(deps.db, RECEIPTS_PER_EMAIL, body.email.toLowerCase(), now)
    } catch (err) {
      await perAddress.release()
      throw err
    }
    return { id: await saveContactMessage(deps, body, now) }
  })
}
