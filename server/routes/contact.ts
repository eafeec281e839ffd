/**
 * The contact form: stores the message and e-mails the sender a receipt. It needs no
 * login, so it is limited (in the database, across processes) per client address and
 * per destination e-mail, and the receipt never repeats the sender's text: the form
 * cannot be used to send someone else mail of the sender's choosing.
 */
import type { FastifyInstance } from 'fastify';
import { getCompany } from '../company.ts';
import { handle, type Deps } from '../http.ts';
import { addressKey, take, type Limit } from '../limits.ts';
import { normaliseMobile } from '../passengers.ts';

/** Contact messages one client address may send. */
export const CONTACT_PER_ADDRESS: Limit = {
  bucket: 'contact-per-address',
  max: 5,
  windowMs: 60 * 60_000,
  reason: 'Too many messages from your network. Try again in {minutes} minutes.',
};

/** Receipts one e-mail address may be sent. */
export const RECEIPTS_PER_EMAIL: Limit = {
  bucket: 'contact-receipts-per-email',
  max: 3,
  windowMs: 24 * 60 * 60_000,
  reason: 'Too many messages were sent for this e-mail address today. Try again in {minutes} minutes.',
};

/** Registers POST /reservation/contactUs. */
export function register(app: FastifyInstance, deps: Deps): void {
  handle(app, deps, 'contactUs', async ({ body, req }) => {
    const now = deps.now();
    const perAddress = await take(deps.db, CONTACT_PER_ADDRESS, addressKey(req.ip), now);
    try {
      await take(deps.db, RECEIPTS_PER_EMAIL, body.email.toLowerCase(), now);
    } catch (err) {
      await perAddress.release();
      throw err;
    }
    return deps.db.transaction(async (tx) => {
      const mobile = body.mobile ? normaliseMobile(body.mobile) : null;
      const [row] = await tx.query<{ id: number }>(
        'INSERT INTO contact_messages (name, email, mobile, subject, message, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
        [body.name, body.email, mobile, body.subject, body.message, now],
      );
      const company = await getCompany(tx);
      await deps.outbox.send(
        {
          channel: 'EMAIL',
          to: body.email,
          subject: `We received your message #${row!.id}`,
          body:
            `Thank you for contacting ${company.name}. We received your message #${row!.id} and will reply within one working day.\n\n` +
            `If you did not write to us, you can ignore this e-mail.\n\n${company.name} support, ${company.phone}`,
        },
        tx,
      );
      return { id: row!.id };
    });
  });
}
