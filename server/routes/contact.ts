/** The contact form: stores the message and e-mails the sender a receipt. */
import type { FastifyInstance } from 'fastify';
import { getCompany } from '../company.ts';
import { handle, type Deps } from '../http.ts';
import { normaliseMobile } from '../passengers.ts';

/** Registers POST /reservation/contactUs. */
export function register(app: FastifyInstance, deps: Deps): void {
  handle(app, deps, 'contactUs', async ({ body }) =>
    deps.db.transaction(async (tx) => {
      const mobile = body.mobile ? normaliseMobile(body.mobile) : null;
      const [row] = await tx.query<{ id: number }>(
        'INSERT INTO contact_messages (name, email, mobile, subject, message, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
        [body.name, body.email, mobile, body.subject, body.message, deps.now()],
      );
      const company = await getCompany(tx);
      await deps.outbox.send(
        {
          channel: 'EMAIL',
          to: body.email,
          subject: `We received your message #${row!.id}`,
          body: `Dear ${body.name},\n\nThank you for contacting ${company.name}. We received your message "${body.subject}" and will reply within one working day.\n\n${company.name} support, ${company.phone}`,
        },
        tx,
      );
      return { id: row!.id };
    }),
  );
}
