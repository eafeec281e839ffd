/**
 * A ticket beyond its PNR and PIN: the QR code signed with the operator's Ed25519 key
 * (TICKET_SIGNING_KEY; the format is contract/ticket-code.ts), the ticket SMS's link (a random
 * token, only its SHA-256 stored: it shows the ticket without its PIN, so it cannot cancel),
 * and what the checker page keeps for offline checks (public keys, a day's trips and their
 * revocation list).
 */
import crypto from 'node:crypto'
import { reservationStatus, type Reservation, type TicketCheck } from '../../contract/schemas.ts'
import { AppError, type Deps } from '../core.ts'
import type { Queryable } from '../db/db.ts'
import { toDhakaIso } from '../lib/time.ts'
import { publicKeyOf, signingKey, signTicketCode } from '../lib/ticket-signing.ts'
import { sha256 } from '../lib/tokens.ts'
import type { TripCityColumns } from '../trips/lookups.ts'

/** A ticket a passenger holds: sold, or moved by the operator to another coach. */
export const TICKET_STATUSES: number[] = [reservationStatus.sold, reservationStatus.tripMigrated]

/** `rs` with the QR code of each live ticket signed now (others get null). */
export function withTicketCodes(deps: Pick<Deps, 'config' | 'now'>, rs: Reservation[]): Reservation[] {
  const key = signingKey(deps.config)
  const at = deps.now().getTime()
  return rs.map((r) => ({
    ...r,
    ticketCode:
      r.pnr && TICKET_STATUSES.includes(r.status)
        ? signTicketCode(key, { p: r.pnr, t: r.tripId, s: r.seats.map((s) => s.name), n: r.passengerName, i: at })
        : null,
  }))
}

/** Random bytes of a link token: 96 bits, 16 base64url characters. */
const LINK_TOKEN_BYTES = 12

/** A new link for ticket `reservationId` (its token; the one it had before stops working). Call in the ticket SMS's transaction. */
export async function issueTicketLink(q: Queryable, reservationId: number): Promise<string> {
  const token = crypto.randomBytes(LINK_TOKEN_BYTES).toString('base64url')
  await q.query('UPDATE reservations SET link_token_hash = $2 WHERE id = $1', [reservationId, sha256(token)])
  return token
}

/** The link a ticket SMS carries: short, opening the ticket page (src/pages/ticket-operation) at `/t`. */
export function ticketLinkUrl(appUrl: string, token: string): string {
  return `${appUrl}/t?k=${token}`
}

/** The reservation id of a link token; TICKET_LINK_INVALID for an unknown, edited or revoked one. */
export async function reservationOfLink(q: Queryable, token: string): Promise<number> {
  if (!/^[A-Za-z0-9_-]{16}$/.test(token)) throw new AppError('TICKET_LINK_INVALID')
  const [row] = await q.query<{ id: number }>('SELECT id FROM reservations WHERE link_token_hash = $1', [sha256(token)])
  if (!row) throw new AppError('TICKET_LINK_INVALID')
  return row.id
}

/** Revokes ticket `pnr`'s link (npm run trip -- revoke-link): true when it had one. */
export async function revokeTicketLink(q: Queryable, pnr: string): Promise<boolean> {
  const rows = await q.query('UPDATE reservations SET link_token_hash = NULL WHERE pnr = $1 AND link_token_hash IS NOT NULL RETURNING id', [
    pnr.trim().toUpperCase(),
  ])
  return rows.length > 0
}

/** The ticket as its link shows it: without the PIN, so the link cannot cancel it or send it again. */
export function linkView(r: Reservation): Reservation {
  return { ...r, pin: null }
}

/**
 * What the checker keeps for day `date`: the public key, the day's trips, and the revocation
 * list: cancelled tickets and tickets moved off a trip by the operator (every code of theirs on that trip),
 * tickets their passenger moved off a trip (their codes on it signed before the move), and live
 * tickets changed since (their codes signed before the change).
 */
export async function ticketCheck(deps: Pick<Deps, 'db' | 'config' | 'now'>, date: string): Promise<TicketCheck> {
  const trips = await deps.db.query<{ id: number; trip_date: string; coach_code: string; departure_at: Date } & TripCityColumns>(
    `SELECT t.id, t.trip_date::text AS trip_date, t.coach_code, t.departure_at,
            o.code AS o_code, o.name AS o_name, o.name_bn AS o_name_bn, d.code AS d_code, d.name AS d_name, d.name_bn AS d_name_bn
       FROM trips t JOIN routes r ON r.id = t.route_id
       JOIN cities o ON o.code = r.origin_code JOIN cities d ON d.code = r.destination_code
      WHERE t.trip_date = $1::date ORDER BY t.departure_at, t.coach_code`,
    [date],
  )
  const ids = trips.map((t) => t.id)
  const revoked = await deps.db.query<{ trip_id: number; pnr: string; before: Date | null }>(
    `SELECT trip_id, pnr, NULL::timestamptz AS before FROM reservations
      WHERE trip_id = ANY($1::int[]) AND pnr IS NOT NULL AND status = ANY($2::int[])
     UNION ALL
     SELECT moved_from_trip_id, pnr, NULL FROM reservations
      WHERE moved_from_trip_id = ANY($1::int[]) AND pnr IS NOT NULL
     UNION ALL
     SELECT c.from_trip_id, x.pnr, c.done_at FROM ticket_changes c JOIN reservations x ON x.id = c.reservation_id
      WHERE c.from_trip_id = ANY($1::int[]) AND c.status = 'DONE' AND x.pnr IS NOT NULL
     UNION ALL
     SELECT trip_id, pnr, ticket_changed_at FROM reservations
      WHERE trip_id = ANY($1::int[]) AND pnr IS NOT NULL AND ticket_changed_at IS NOT NULL AND status = ANY($3::int[])`,
    [ids, [reservationStatus.canceled, reservationStatus.tripMigratedCanceled], TICKET_STATUSES],
  )
  return {
    keys: [publicKeyOf(signingKey(deps.config))],
    trips: trips.map((t) => ({
      id: t.id,
      tripDate: t.trip_date,
      coachCode: t.coach_code,
      origin: { code: t.o_code, name: t.o_name, nameBn: t.o_name_bn },
      destination: { code: t.d_code, name: t.d_name, nameBn: t.d_name_bn },
      departureTime: toDhakaIso(t.departure_at),
    })),
    revoked: revoked.map((r) => ({ tripId: r.trip_id, pnrHash: sha256(r.pnr), before: r.before ? r.before.toISOString() : null })),
    fetchedAt: toDhakaIso(deps.now()),
  }
}
