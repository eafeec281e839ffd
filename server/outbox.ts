/**
 * Where SMS and e-mail go. In development every message is stored in
 * `outbox_messages` and printed, and `GET /dev/outbox` lists them (so people and
 * end-to-end tests can read one-time codes). A real SMS or e-mail gateway
 * implements `Provider` and is wrapped by `providerOutbox`.
 */
import type { FastifyInstance } from 'fastify';
import { isStorableText, type OutboxMessage } from '../contract/schemas.ts';
import type { Queryable } from './db.ts';
import { AppError, type Deps, type Outbox, type OutboxInput } from './http.ts';
import { normaliseMobile } from './passengers.ts';
import { toDhakaIso } from './time.ts';

/** What a real SMS / e-mail gateway implements. Throwing means the message was not accepted. */
export interface Provider {
  sendSms(to: string, body: string): Promise<void>;
  sendEmail(to: string, subject: string, body: string): Promise<void>;
}

/** The development outbox: stores each message (in the caller's transaction when given) and prints it. */
export function devOutbox(db: Queryable, now: () => Date, log: (line: string) => void = (l) => console.log(l)): Outbox {
  return {
    async send(msg: OutboxInput, tx?: Queryable) {
      await (tx ?? db).query('INSERT INTO outbox_messages (channel, "to", subject, body, code, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        msg.channel,
        msg.to,
        msg.subject ?? null,
        msg.body,
        msg.code ?? null,
        now(),
      ]);
      log(`[outbox] ${msg.channel} to ${msg.to}${msg.subject ? ` (${msg.subject})` : ''}: ${msg.body}`);
    },
  };
}

/** An outbox that hands messages to a real gateway; a failed SMS is SMS_PROVIDER_SERVICE_UNAVAILABLE. */
export function providerOutbox(provider: Provider): Outbox {
  return {
    async send(msg: OutboxInput) {
      try {
        if (msg.channel === 'SMS') await provider.sendSms(msg.to, msg.body);
        else await provider.sendEmail(msg.to, msg.subject ?? '', msg.body);
      } catch (err) {
        if (msg.channel === 'SMS') throw new AppError('SMS_PROVIDER_SERVICE_UNAVAILABLE');
        throw err;
      }
    },
  };
}

interface OutboxRow {
  id: number;
  channel: 'SMS' | 'EMAIL';
  to: string;
  subject: string | null;
  body: string;
  code: string | null;
  created_at: Date;
}

/** Registers `GET /dev/outbox[?to=]` (newest first) unless in production. */
export function registerDevOutbox(app: FastifyInstance, deps: Deps): void {
  if (deps.config.production) return;
  app.get('/dev/outbox', async (req) => {
    const q = (req.query ?? {}) as Record<string, unknown>;
    const to = typeof q.to === 'string' && q.to.length > 0 && q.to.length <= 254 ? q.to.trim() : null;
    if (to !== null && !isStorableText(to)) throw new AppError('VALIDATION_FAILED', { fields: [{ path: 'to', message: 'Contains a character that is not allowed' }] });
    const wanted = to ? [...new Set([to, normaliseMobile(to) ?? to])] : null;
    const rows = await deps.db.query<OutboxRow>(
      `SELECT id, channel, "to", subject, body, code, created_at FROM outbox_messages
        WHERE ($1::text[] IS NULL OR "to" = ANY($1::text[])) ORDER BY id DESC LIMIT 200`,
      [wanted],
    );
    const data: OutboxMessage[] = rows.map((r) => ({
      id: r.id,
      channel: r.channel,
      to: r.to,
      subject: r.subject,
      body: r.body,
      code: r.code,
      createdAt: toDhakaIso(r.created_at),
    }));
    return { data };
  });
}
