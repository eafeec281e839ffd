/**
 * The sandbox card gateway, for development only: a plain HTML page (no script,
 * so it passes a strict CSP) with `Approve payment` and `Decline payment`, and
 * the form post that records the decision and sends the browser back to the app
 * with a 303. Anyone can approve a payment there, so it is never registered in
 * production (createGateway).
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Deps } from '../../core.ts'
import type { PaymentRow } from '../payment-row.ts'
import { confirmPayment, decide, findPayment, paymentIdPattern, resultUrl } from '../payments.ts'
import type { PaymentGateway, Refunder } from './gateway.ts'

const FORM = 'application/x-www-form-urlencoded'

/** The sandbox gateway page of a payment. */
export const gatewayPath = (paymentId: string) => `/sandbox/gateway/${encodeURIComponent(paymentId)}`

/**
 * The sandbox gateway. `routes: false` keeps only its success / failure handling,
 * for sandbox payments left over when another gateway is configured.
 */
export function sandboxGateway(deps: Deps, opts: { routes: boolean }): PaymentGateway {
  return {
    provider: 'sandbox',
    minAmount: 1,
    canReuse: () => true,
    async open(payment) {
      return { redirectUrl: gatewayPath(payment.id) }
    },
    register(app) {
      if (opts.routes) registerRoutes(app, deps)
    },
    async refresh(payment) {
      if (payment.status === 'APPROVED' && !payment.confirmed_at) await confirmPayment(deps, payment.id)
    },
  }
}

/**
 * The sandbox's refunds: no card was charged, so a refund is accepted and done at once (the
 * refunds row records it, so the whole refund path works in development).
 */
export const sandboxRefunder: Refunder = {
  async refund(req) {
    return { state: 'done', refundRefId: `sandbox-${req.refundId}`, at: null }
  },
  async status(refundRefId) {
    return { state: 'done', refundRefId, at: null }
  },
}

/** Registers GET and POST /sandbox/gateway/:paymentId. */
function registerRoutes(app: FastifyInstance, deps: Deps): void {
  // An app on its own origin (APP_URL, e.g. a CDN) gets the passenger back; otherwise the
  // app is on this server, and a path keeps whichever host name the passenger used.
  const appBase = deps.config.appUrl === deps.config.publicUrl ? '' : deps.config.appUrl
  const back = (p: PaymentRow) => resultUrl(p, appBase)
  const appOrigin = appBase ? new URL(appBase).origin : null
  app.register(async (scope) => {
    if (!scope.hasContentTypeParser(FORM)) {
      scope.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 4096 }, (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)))
      })
    }

    scope.get<{ Params: { paymentId: string } }>('/sandbox/gateway/:paymentId', async (req, reply) => {
      const p = await load(deps, req.params.paymentId)
      if (!p) return page(reply, 404, 'Payment not found', '<p>This payment does not exist.</p><p><a href="/">Back to the home page</a></p>')
      const merchant = await merchantName(deps)
      const details =
        `<dl><dt>Merchant</dt><dd>${esc(merchant)}</dd>` +
        `<dt>Amount</dt><dd>Tk ${p.amount.toLocaleString('en-US')} (BDT)</dd>` +
        `<dt>For</dt><dd>${p.purpose === 'TOP_UP' ? 'Balance top-up' : `Bus ticket, booking ${p.reservation_id}`}</dd>` +
        `<dt>Payment reference</dt><dd>${esc(p.id)}</dd></dl>`
      if (p.status !== 'PENDING') {
        return page(
          reply,
          200,
          'Payment already decided',
          `${details}<p role="status">This payment was already ${p.status === 'APPROVED' ? 'approved' : 'declined'}.</p>` +
            `<p><a href="${esc(back(p))}">Continue to the merchant</a></p>`,
        )
      }
      // browsers hold a form's redirect to the page's form-action too: the decision's 303 goes to the app's origin
      if (appOrigin) allowFormTarget(reply, appOrigin)
      return page(
        reply,
        200,
        'Sandbox card payment',
        `<p>This is a test gateway: no card is charged.</p>${details}` +
          `<form method="post" action="${esc(gatewayPath(p.id))}">` +
          `<button type="submit" name="decision" value="approve">Approve payment</button> ` +
          `<button type="submit" name="decision" value="decline">Decline payment</button>` +
          `</form>`,
      )
    })

    scope.post<{ Params: { paymentId: string }; Body: Record<string, string> | undefined }>('/sandbox/gateway/:paymentId', async (req, reply) => {
      const decision = req.body && typeof req.body === 'object' ? req.body.decision : undefined
      if (decision !== 'approve' && decision !== 'decline') {
        return page(reply, 400, 'Choose approve or decline', `<p><a href="${esc(gatewayPath(req.params.paymentId))}">Back to the payment</a></p>`)
      }
      const p0 = await load(deps, req.params.paymentId)
      if (!p0) return page(reply, 404, 'Payment not found', '<p>This payment does not exist.</p>')
      const p = await decide(deps.db, p0.id, decision === 'approve', deps.now())
      // Acts as the gateway's server-to-server notification: the sale does not wait for the browser.
      if (p.status === 'APPROVED') {
        // The sandbox stands for the gateway's page: what was chosen there is what "paid" (development only).
        await deps.db.query("UPDATE payments SET paid_with = coalesce(asked_with, 'card') WHERE id = $1 AND paid_with IS NULL", [p.id])
        await confirmPayment(deps, p.id)
      }
      return reply.code(303).header('location', back(p)).header('cache-control', 'no-store').send()
    })
  })
}

/** The sandbox payment `id`, or null (unknown, malformed, or taken by another gateway). */
async function load(deps: Deps, id: string): Promise<PaymentRow | null> {
  if (!paymentIdPattern.test(id)) return null
  try {
    const p = await findPayment(deps.db, id)
    return p.provider === 'sandbox' ? p : null
  } catch {
    return null
  }
}

async function merchantName(deps: Deps): Promise<string> {
  try {
    const rows = await deps.db.query<{ name: string }>('SELECT name FROM company LIMIT 1')
    return rows[0]?.name ?? 'Bus ticket merchant'
  } catch {
    return 'Bus ticket merchant'
  }
}

/** Adds `origin` to the form-action of the page's Content-Security-Policy (server/app.ts sets it to 'self'). */
function allowFormTarget(reply: FastifyReply, origin: string): void {
  const csp = reply.getHeader('content-security-policy')
  if (typeof csp === 'string') reply.header('content-security-policy', csp.replace("form-action 'self'", `form-action 'self' ${origin}`))
}

function page(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${esc(title)} - Sandbox gateway</title></head>` +
    `<body><main><h1>${esc(title)}</h1>${body}</main></body></html>`
  return reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(html)
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}
