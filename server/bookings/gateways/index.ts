/**
 * The configured card gateway. Only `PAYMENT_PROVIDER=sandbox` outside production
 * gets the sandbox page; production never has it, whatever else is set (a
 * production server without SSLCommerz has no card payments at all).
 */
import type { Deps } from '../../http/handle.ts'
import { AppError } from '../../http/handle.ts'
import type { PaymentRow } from '../payments.ts'
import type { PaymentGateway } from './gateway.ts'
import { sandboxGateway } from './sandbox.ts'
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

/** Starts the configured gateway's background work (the SSLCommerz reconciliation pass); answers a stop function. */
export function startGatewayJobs(deps: Deps): () => void {
  const g = createGateway(deps)
  if (g.provider === 'sslcommerz') return startReconciliation(g as SslcommerzGateway)
  return () => undefined
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
