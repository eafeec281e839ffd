/**
 * Contact-form messages: each is stored and its sender gets a receipt by e-mail that
 * never repeats the sender's text, so the form cannot send someone else mail of the
 * sender's choosing.
 */
import { getCompany } from './company.ts'
import type { Deps } from '../core.ts'
import { normaliseMobile } from '../lib/mobile.ts'

/** Stores a contact message and queues its receipt; answers the message number. */
export async function saveContactMessage(
  deps: Deps,
  m: { name: string; email: string; mobile?: string; subject: string; message: string },
  now: Date,
): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const mobile = m.mobile ? normaliseMobile(m.mobile) : null
    const [row] = await tx.query<{ id: number }>(
      'INSERT INTO contact_messages (name, email, mobile, subject, message, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
      [m.name, m.email, mobile, m.subject, m.message, now],
    )
    const company = await getCompany(tx)
    await deps.outbox.send(
      {
        channel: 'EMAIL',
        to: m.email,
        subject: `We received your message #${row!.id}`,
        body:
          `Thank you for contacting ${company.name}. We received your message #${row!.id} and will reply within one working day.\n\n` +
          `If you did not write to us, you can ignore this e-mail.\n\n${company.name} support, ${company.phone}`,
      },
      tx,
    )
    return row!.id
  })
}
