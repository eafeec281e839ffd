/**
 * The result token of the card payment this tab opened last. The server hands one out with each
 * payment; the pages after the gateway send it back, and only then (or to the signed-in payer)
 * does the server show the result in full: PNR, PIN, mobile, balance. Session storage: it stays
 * with the tab across the gateway's pages, and a payment id from a URL or the history alone
 * reveals nothing.
 */
import { sessionStore, storageKeys } from '../lib/storage.ts'

/** Keeps the result token of the payment this tab just opened. */
export function keepResultToken(paymentId: string, token: string): void {
  sessionStore().setItem(storageKeys.paymentResultToken, `${paymentId} ${token}`)
}

/** The body of /reservation/success and /failure: the payment id, with this tab's result token when it has one (JSON leaves out none). */
export function resultRequest(paymentId: string): { paymentId: string; resultToken?: string } {
  const [id, resultToken] = `${sessionStore().getItem(storageKeys.paymentResultToken)}`.split(' ')
  return { paymentId, resultToken: id === paymentId ? resultToken : undefined }
}
