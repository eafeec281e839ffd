/**
 * The configured card gateway. Only `PAYMENT_PROVIDER=sandbox` outside production
 * gets the sandbox page; production never has it, whatever else is set (a
 * production server without SSLCommerz has no card payments at all).
 */
import type { Deps } from '../../core.ts'
import { AppError } from '../../core.ts'
import type { PaymentRow } from '../payment-row.ts'
import { onRefundQueued, refundPass, type RefunderFor } from '../refunds.ts'
import type { PaymentGateway } from './gateway.ts'
import { sandboxGateway, sandboxRefunder } from './sandbox.ts'
import { sslcommerzGateway, startReconciliation, type SslcommerzGateway } from './sslcommerz.ts'

export type { OpenContext, PaymentGateway } from './gateway.ts'

const gateways = new WeakMap<Deps, PaymentGateway>()

/** The gateway `deps.config.payment` asks for (one per deps). */
export function createGateway(deps: Deps): PaymentGateway {
  const known = gateways.get(deps)
  if (known) return known
  const pay = deps.config.payment
  let g: PaymentGateway
  if (pay.provider === 'sslcommerz') g = sslcommerzGateway(deps, pay)
  else if (pay.provider === 'sandbox' && !deps.config.production) g = sandboxGateway(deps, { routes: true })
  else g = unavailableGateway(deps)
  gateways.set(deps, g)
  return g
}

/**
 * The gateway that answers for `payment`: the configured one when it took the
 * payment, otherwise the sandbox's handling without its routes (a sandbox payment
 * left over from before a change of gateway can only be confirmed).
 */
export function gatewayFor(deps: Deps, payment: PaymentRow): PaymentGateway {
  const g = createGateway(deps)
  return g.provider === payment.provider ? g : sandboxGateway(deps, { routes: false })
}

/**
 * Who refunds payments of `provider` here: SSLCommerz when it is the configured gateway, the
 * sandbox for sandbox payments (no card was charged); null for SSLCommerz payments on a server
 * without it (the refund waits, then is listed for the operator).
 */
export function refunderFor(deps: Deps): RefunderFor {
  return (provider) => {
    if (provider === 'sandbox') return sandboxRefunder
    const g = createGateway(deps)
    return g.provider === 'sslcommerz' ? (g as SslcommerzGateway).refunder : null
  }
}

/** Starts the gateway's background work: the SSLCommerz reconciliation pass and the refund worker; answers a stop function. */
export function startGatewayJobs(deps: Deps): () => void {
  const g = createGateway(deps)
  const stopReconciliation = g.provider === 'sslcommerz' ? startReconciliation(g as SslcommerzGateway) : () => undefined
  const stopRefunds = startRefundWorker(deps)
  return () => {
    stopReconciliation()
    stopRefunds()
  }
}

/** Runs the refund pass at start, every REFUND_RETRY_SECONDS (at most a minute apart) and when a refund is queued here. */
export function startRefundWorker(deps: Deps, log: (line: string) => void = (l) => console.warn(l)): () => void {
  const refunders = refunderFor(deps)
  let running: Promise<void> | null = null
  let again = false
  const run = () => {
    if (running) {
      again = true
      return
    }
    running = (async () => {
      try {
        do {
          again = false
          // A full batch: more may be due.
          while ((await refundPass(deps, refunders, log)) >= 20) {}
        } while (again)
      } catch (err) {
        log(`[refunds] refund pass failed: ${(err as Error).message}`)
      } finally {
        running = null
      }
    })()
  }
  run()
  const timer = setInterval(run, Math.min((deps.config.refundRetrySeconds ?? 60) * 1000, 60_000))
  timer.unref()
  const unregister = onRefundQueued(deps, run)
  return () => {
    clearInterval(timer)
    unregister()
  }
}

function unavailableGateway(deps: Deps): PaymentGateway {
  const fallback = sandboxGateway(deps, { routes: false })
  return {
    provider: null,
    minAmount: 1,
    canReuse: () => false,
    async open() {
      throw new AppError('PAYMENT_GATEWAY_UNAVAILABLE')
    },
    register() {},
    refresh: fallback.refresh,
  }
}
