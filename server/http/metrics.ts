/**
 * Prometheus metrics (prom-client), one registry per server: request latency by
 * route, seat-lock outcomes, limit refusals (PIN and code lockouts among them),
 * and, read from the database when scraped (so every process reports the same),
 * payments by outcome, refunds by status with the oldest unfinished one's age, the message
 * outbox's backlog and failures (delivery failures by channel are `outbox_messages{status="FAILED"}`),
 * and each provider's sends, failed sends and SMS failovers (server/delivery/provider-health.ts).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { Queryable } from '../db/db.ts'

const REFUND_STATUSES = ['PENDING', 'SENT', 'DONE', 'FAILED'] as const

/** What the server counts; `registry` is what /metrics exposes. */
export interface Metrics {
  registry: Registry
  /** A finished request: method, route template (never the URL: it may hold secrets), status, seconds. */
  request(method: string, route: string, status: number, seconds: number): void
  /** A seat-lock request's outcome. */
  seatLock(outcome: 'won' | 'lost' | 'released' | 'refused_limit' | 'refused_max' | 'error'): void
  /** A request refused by a database-kept limit (limits.ts bucket). */
  refused(bucket: string): void
}

/**
 * Creates the registry and its metrics; the database gauges query `db` when scraped. Ages are measured from
 * `now()`, the app's clock (every stored time comes from it), never the database's own now().
 */
export function createMetrics(db: Queryable, now: () => Date = () => new Date()): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'API request latency by route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  const locks = new Counter({
    name: 'seat_lock_requests_total',
    help: 'Seat-lock requests by outcome: won, lost (another holder), released, refused_limit (per-address hold limit), refused_max (5 seats), error',
    labelNames: ['outcome'] as const,
    registers: [registry],
  })
  const refusals = new Counter({
    name: 'limit_refusals_total',
    help: 'Requests refused by a database-kept limit, by bucket (pnr-pin: PIN lockouts; sms-per-mobile and auth:*: code and sign-in limits)',
    labelNames: ['bucket'] as const,
    registers: [registry],
  })
  new Gauge({
    name: 'payments',
    help: 'Payments by purpose and status (from the database)',
    labelNames: ['purpose', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset()
      const rows = await db.query<{ purpose: string; status: string; n: number }>(
        'SELECT purpose, status, count(*)::int AS n FROM payments GROUP BY 1, 2',
      )
      for (const r of rows) this.set({ purpose: r.purpose, status: r.status }, r.n)
    },
  })
  new Gauge({
    name: 'payments_refunded',
    help: 'Card payments approved after their booking ended, credited to the balance instead',
    registers: [registry],
    async collect() {
      const [r] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE refunded')
      this.set(r?.n ?? 0)
    },
  })
  new Gauge({
    name: 'refunds',
    help: 'Refunds to the card by status (from the database): PENDING (not yet accepted by the gateway), SENT (processing there), DONE, FAILED (the operator finishes it)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const rows = await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM refunds GROUP BY 1')
      // Every status is reported, 0 included, so an alert on FAILED > 0 has a series to watch.
      for (const status of REFUND_STATUSES) this.set({ status }, rows.find((r) => r.status === status)?.n ?? 0)
    },
  })
  new Gauge({
    name: 'refunds_oldest_unfinished_seconds',
    help: 'Age of the oldest refund not DONE, by status (0 when none): a SENT one stuck in processing, a FAILED one waiting for the operator',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const rows = await db.query<{ status: string; s: number }>(
        "SELECT status, extract(epoch FROM $1::timestamptz - min(created_at))::float8 AS s FROM refunds WHERE status <> 'DONE' GROUP BY 1",
        [now()],
      )
      for (const status of REFUND_STATUSES.filter((x) => x !== 'DONE'))
        this.set({ status }, Math.max(0, rows.find((r) => r.status === status)?.s ?? 0))
    },
  })
  new Gauge({
    name: 'outbox_messages',
    help: 'SMS and e-mails by channel and delivery status (PENDING and SENDING: the backlog; FAILED: given up)',
    labelNames: ['channel', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset()
      const rows = await db.query<{ channel: string; status: string; n: number }>(
        "SELECT channel, status, count(*)::int AS n FROM outbox_messages WHERE status <> 'SENT' GROUP BY 1, 2",
      )
      for (const r of rows) this.set({ channel: r.channel, status: r.status }, r.n)
    },
  })
  new Gauge({
    name: 'outbox_oldest_pending_seconds',
    help: 'Age of the oldest message not yet delivered (0 when none)',
    registers: [registry],
    async collect() {
      const [r] = await db.query<{ s: number | null }>(
        "SELECT extract(epoch FROM $1::timestamptz - min(created_at))::float8 AS s FROM outbox_messages WHERE status IN ('PENDING', 'SENDING')",
        [now()],
      )
      this.set(Math.max(0, r?.s ?? 0))
    },
  })
  type CountRow = { channel: string; provider: string; reason: string; n: number }
  const deliveryCounter = (name: string, help: string, event: 'sent' | 'failed' | 'failover', labels: (r: CountRow) => Record<string, string>) =>
    new Counter({
      name,
      help: `${help} (from the database)`,
      labelNames: Object.keys(labels({ channel: '', provider: '', reason: '', n: 0 })),
      registers: [registry],
      async collect() {
        this.reset()
        const rows = await db.query<CountRow>('SELECT channel, provider, reason, n::float8 AS n FROM delivery_counts WHERE event = $1', [event])
        for (const r of rows) this.inc(labels(r), r.n)
      },
    })
  deliveryCounter('delivery_sends_total', 'Messages a provider accepted, by channel and provider', 'sent', (r) => ({
    channel: r.channel,
    provider: r.provider,
  }))
  deliveryCounter(
    'delivery_failures_total',
    'Sends a provider did not accept, by channel, provider and reason: temporary, refused, configuration, duplicate',
    'failed',
    (r) => ({ channel: r.channel, provider: r.provider, reason: r.reason }),
  )
  deliveryCounter(
    'delivery_failovers_total',
    'SMS handed from the first provider to the fallback, by cause: first_failure (a code), refused, attempts_used, routed_around, no_answer',
    'failover',
    (r) => ({ from: r.provider, cause: r.reason }),
  )
  new Gauge({
    name: 'delivery_provider_routed_around',
    help: 'SMS providers messages go around for now after failing again and again (1), by provider',
    labelNames: ['provider'] as const,
    registers: [registry],
    async collect() {
      this.reset()
      const rows = await db.query<{ provider: string; open: boolean }>(
        'SELECT provider, open_until IS NOT NULL AND open_until > $1 AS open FROM delivery_providers',
        [now()],
      )
      for (const r of rows) this.set({ provider: r.provider }, r.open ? 1 : 0)
    },
  })
  return {
    registry,
    request: (method, route, status, seconds) => latency.observe({ method, route, status: String(status) }, seconds),
    seatLock: (outcome) => locks.inc({ outcome }),
    refused: (bucket) => refusals.inc({ bucket }),
  }
}
