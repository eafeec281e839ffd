/**
 * Trip search, trip details with the seat map, seat locks, bookings and coupons.
 */
import type { FastifyInstance } from 'fastify';
import { MAX_ID, MAX_SEATS, OPEN_SEAT_NAME, type Seat, type SeatType, type TripSummary } from '../../contract/schemas.ts';
import { checkCouponRules, discountOf, findOffer } from '../coupons.ts';
import { languageOf } from '../delivery/ticket-messages.ts';
import { AppError, handle, type Deps } from '../http.ts';
import { addressKey } from '../limits.ts';
import { memoized } from '../memo.ts';
import { assertNotUnderReview, declinePending } from '../payments.ts';
import { assertLiveBooking, lockOwnReservation, mustLoadReservation } from '../reservations.ts';
import { bookedUnpaidCount, holdersOf, seatLocker, unlockSeats } from '../seat-locks.ts';
import {
  addMinutes,
  assertOnSale,
  assertRoute,
  expireBookings,
  findTrip,
  findTripByCoach,
  dhakaIsoOrNull,
  seatStates,
  sortSeatTypes,
  takenSql,
  type TripRow,
} from '../trips.ts';
import { dhakaDate, toDhakaIso } from '../time.ts';

/** Registers the reservations routes. */
export function register(app: FastifyInstance, deps: Deps): void {
  // Popular searches are answered from memory for a moment (config.searchCacheMs):
  // seat counts in results may lag by that long; the seat map is always fresh.
  // Concurrent identical searches share one query.
  const cacheMs = () => deps.config.searchCacheMs ?? 0;
  const cachedSearch = memoized(
    async (q: { originCode: string; destinationCode: string; tripDate: string; now: Date }) => {
      await assertCities(deps, [q.originCode, q.destinationCode]);
      return searchTrips(deps, q.originCode, q.destinationCode, q.tripDate, q.now);
    },
    { ttlMs: cacheMs, max: 1000, key: (q) => `${q.originCode}|${q.destinationCode}|${q.tripDate}` },
  );

  handle(app, deps, 'tripSearch', async ({ body }) => {
    const now = deps.now();
    if (body.originCode === body.destinationCode) {
      throw new AppError('VALIDATION_FAILED', { fields: [{ path: 'destinationCode', message: 'Origin and destination must differ' }] });
    }
    if (body.tripDate < dhakaDate(now)) throw new AppError('TRIP_IS_NOT_AVAILABLE');
    return cachedSearch({ ...body, now });
  });

  // Trip rows (times, route, fares, layout) change only with the timetable: the seat
  // map reads them from memory for as long as searches are cached; seats are always fresh.
  const cachedTrip = memoized((id: number) => findTrip(deps.db, id), { ttlMs: cacheMs, max: 5000 });

  handle(app, deps, 'tripDetails', async (call) => {
    const { body } = call;
    const now = deps.now();
    const trip = await cachedTrip(body.tripId);
    if (!trip) throw new AppError('TRIP_NOT_FOUND');
    assertRoute(trip, body.originCode, body.destinationCode);
    assertOnSale(trip, now);
    await assertStation(deps, body.originBusStationId, trip.origin_code);
    await assertStation(deps, body.destinationBusStationId, trip.destination_code);
    const holders = holdersOf(call);
    const passengerId = call.auth?.passengerId ?? null;
    const [states, booked] = await Promise.all([seatStates(deps.db, trip, now), bookedUnpaidCount(deps.db, trip.id, passengerId, now)]);
    const held: string[] = [];
    let earliest: Date | null = null;
    const seats: Seat[] = states.map((s) => {
      const locked = s.holder !== null && s.status === 0;
      const mine = locked && holders.includes(s.holder!);
      if (s.holder !== null && holders.includes(s.holder)) {
        held.push(s.name);
        if (!earliest || s.expires_at! < earliest) earliest = s.expires_at;
      }
      return {
        name: s.name,
        row: s.row,
        column: s.col,
        deck: s.deck,
        seatType: s.seat_type,
        fare: trip.fares[s.seat_type] ?? 0,
        status: s.status,
        lockedByOther: locked && !mine,
        lockedByMe: mine,
      };
    });
    return {
      tripId: trip.id,
      tripDate: trip.trip_date,
      originCode: trip.origin_code,
      destinationCode: trip.destination_code,
      departureTime: toDhakaIso(trip.departure_at),
      arrivalTime: toDhakaIso(trip.arrival_at),
      coach: { code: trip.coach_code, type: trip.coach_type, name: trip.layout_name },
      availableSeats: seats.filter((s) => s.name !== OPEN_SEAT_NAME && s.status === 0 && !s.lockedByOther && !s.lockedByMe).length,
      seatLayout: { rows: trip.rows, columns: trip.columns, aisleColumns: trip.aisle_columns, decks: trip.decks, seats },
      remainingSeatLimit: Math.max(0, MAX_SEATS - held.length - booked),
      expirationTime: dhakaIsoOrNull(earliest),
    };
  });

  const lockSeats = seatLocker(deps.db, () => ({ perTrip: deps.config.holdLimitPerAddress, total: deps.config.holdLimitPerAddressTotal }));
  handle(app, deps, 'seatLock', async (call) => {
    const { body } = call;
    const now = deps.now();
    const holders = holdersOf(call);
    if (body.locked) {
      // trip, route, sale and layout checks happen inside the one locking call
      try {
        const held = await lockSeats({
          trip: body,
          seatNames: body.seatNames,
          holders,
          passengerId: call.auth?.passengerId ?? null,
          now,
          holdMinutes: deps.config.holdMinutes,
          address: addressKey(call.req.ip),
        });
        deps.metrics.seatLock(held ? 'won' : 'lost');
        return held;
      } catch (err) {
        const code = err instanceof AppError ? err.code : null;
        deps.metrics.seatLock(code === 'HOLD_LIMIT_EXCEEDED' ? 'refused_limit' : code === 'MAX_SEAT_WARNING' ? 'refused_max' : 'error');
        throw err;
      }
    }
    const trip = body.tripId ? await findTrip(deps.db, body.tripId) : await findTripByCoach(deps.db, body.tripDate, body.coachCode);
    if (!trip) throw new AppError('TRIP_NOT_FOUND');
    assertRoute(trip, body.originCode, body.destinationCode);
    deps.metrics.seatLock('released');
    return unlockSeats(deps.db, { tripId: trip.id, seatNames: body.seatNames, holders, now });
  });

  handle(app, deps, 'booking', async (call) => {
    const { body } = call;
    const passengerId = call.auth!.passengerId;
    const now = deps.now();
    const trip = await findTrip(deps.db, body.tripId);
    if (!trip) throw new AppError('TRIP_NOT_FOUND');
    assertOnSale(trip, now);
    await assertStation(deps, body.boardingStationId, trip.origin_code, true);
    await assertStation(deps, body.droppingStationId, trip.destination_code, true);
    const names = [...new Set(body.seatNames)].sort();
    if (names.includes(OPEN_SEAT_NAME)) throw new AppError('SEAT_NOT_FOUND');
    const layout = await deps.db.query<{ name: string; seat_type: SeatType }>(
      'SELECT name, seat_type FROM layout_seats WHERE layout_id = $1 AND name = ANY($2::text[])',
      [trip.layout_id, names],
    );
    if (layout.length !== names.length) throw new AppError('SEAT_NOT_FOUND');
    const holders = holdersOf(call);
    let id: number;
    try {
      id = await deps.db.transaction(async (tx) => {
        // Claim the caller's own locks by deleting them: a lock can be spent once.
        const claimed = await tx.query<{ seat_name: string }>(
          'DELETE FROM seat_locks WHERE trip_id = $1 AND seat_name = ANY($2::text[]) AND holder = ANY($3::text[]) AND expires_at > $4 RETURNING seat_name',
          [trip.id, names, holders, now],
        );
        if (claimed.length !== names.length) {
          // Someone else holds or bought a seat: unavailable. Nobody does: the caller's hold ran out.
          const others = await tx.query(
            `SELECT 1 FROM seat_locks WHERE trip_id = $1 AND seat_name = ANY($2::text[]) AND expires_at > $3 AND NOT (holder = ANY($4::text[]))
             UNION ALL
             SELECT 1 FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
              WHERE rs.trip_id = $1 AND rs.seat_name = ANY($2::text[]) AND ${takenSql('$3')}`,
            [trip.id, names, now, holders],
          );
          throw new AppError(others.length > 0 ? 'SEAT_UNAVAILABLE' : 'BOOKING_TIME_EXCEED');
        }
        if ((await bookedUnpaidCount(tx, trip.id, passengerId, now)) + names.length > MAX_SEATS) {
          throw new AppError('SEAT_LIMIT_EXCEEDED', { reason: `Seat limit exceeded. You can book at most ${MAX_SEATS} seats on a trip.` });
        }
        // Expired bookings still hold their seats in the unique index until swept.
        await expireBookings(tx, now, { tripId: trip.id });
        const fares = layout.map((s) => ({ name: s.name, type: s.seat_type, fare: trip.fares[s.seat_type] ?? 0 }));
        const subtotal = fares.reduce((a, s) => a + s.fare, 0);
        const [row] = await tx.query<{ id: number }>(
          `INSERT INTO reservations (trip_id, passenger_id, status, boarding_station_id, dropping_station_id, passenger_name, passenger_mobile,
                                     passenger_email, subtotal, discount, total, expiration_time, max_expiration_time, created_at, language)
           VALUES ($1, $2, 2, $3, $4, $5, $6, $7, $8, 0, $8, $9, $10, $11, $12) RETURNING id`,
          [
            trip.id,
            passengerId,
            body.boardingStationId,
            body.droppingStationId,
            body.passengerName,
            normaliseMobile(body.passengerMobile),
            body.passengerEmail || null,
            subtotal,
            minDate(addMinutes(now, deps.config.holdMinutes), trip.departure_at),
            minDate(addMinutes(now, deps.config.maxHoldMinutes), trip.departure_at),
            now,
            languageOf(call.req.headers['accept-language']),
          ],
        );
        await tx.query(
          `INSERT INTO reservation_seats (reservation_id, trip_id, seat_name, seat_type, fare)
           SELECT $1, $2, n, t, f FROM unnest($3::text[], $4::text[], $5::int[]) AS u(n, t, f)`,
          [row.id, trip.id, fares.map((s) => s.name), fares.map((s) => s.type), fares.map((s) => s.fare)],
        );
        return row.id;
      });
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new AppError('SEAT_UNAVAILABLE');
      throw err;
    }
    return mustLoadReservation(deps.db, id);
  });

  handle(app, deps, 'extendBooking', async (call) => {
    const { body } = call;
    const now = deps.now();
    const at = parseInstant(body.expirationTime);
    if (!at) throw new AppError('INVALID_EXPIRATION_TIME');
    await deps.db.transaction(async (tx) => {
      const r = await lockOwnReservation(tx, body.reservationId, call.auth!.passengerId);
      assertLiveBooking(r, now);
      if (at.getTime() <= now.getTime() || !r.max_expiration_time || at.getTime() > r.max_expiration_time.getTime()) {
        throw new AppError('INVALID_EXPIRATION_TIME');
      }
      await tx.query('UPDATE reservations SET expiration_time = $2 WHERE id = $1', [r.id, at]);
    });
    return mustLoadReservation(deps.db, body.reservationId);
  });

  handle(app, deps, 'cancelBooking', async (call) => {
    const { body } = call;
    const now = deps.now();
    await deps.db.transaction(async (tx) => {
      const r = await lockOwnReservation(tx, body.reservationId, call.auth!.passengerId);
      assertLiveBooking(r, now);
      // a card payment held for review may still be accepted for the booking as it is
      await assertNotUnderReview(tx, r.id);
      await tx.query("UPDATE reservations SET status = 5, canceled_at = $2, cancel_reason = 'BOOKING_CANCELED' WHERE id = $1", [r.id, now]);
      await tx.query('UPDATE reservation_seats SET active = false WHERE reservation_id = $1', [r.id]);
      // A pending card payment for a canceled booking must not be approvable any more.
      await declinePending(tx, r.id, now);
    });
    return mustLoadReservation(deps.db, body.reservationId);
  });

  handle(app, deps, 'applyCoupon', async (call) => {
    const id = parseId(call.params.reservationId);
    const code = call.params.couponCode.trim().toUpperCase();
    const now = deps.now();
    await deps.db.transaction(async (tx) => {
      const r = await lockOwnReservation(tx, id, call.auth!.passengerId);
      assertLiveBooking(r, now);
      // a card payment held for review may still be accepted for the booking as it is
      await assertNotUnderReview(tx, r.id);
      const offer = await findOffer(tx, code, now);
      await checkCouponRules(tx, offer, { id: r.id, passengerId: r.passenger_id, subtotal: r.subtotal });
      const discount = discountOf(offer, r.subtotal);
      await tx.query('UPDATE reservations SET coupon_code = $2, discount = $3, total = subtotal - $3 WHERE id = $1', [r.id, offer.coupon_code, discount]);
      // A card payment opened for the old amount must not be approvable.
      await declinePending(tx, r.id, now);
    });
    return mustLoadReservation(deps.db, id);
  });

  handle(app, deps, 'removeCoupon', async (call) => {
    const id = parseId(call.params.reservationId);
    const now = deps.now();
    await deps.db.transaction(async (tx) => {
      const r = await lockOwnReservation(tx, id, call.auth!.passengerId);
      assertLiveBooking(r, now);
      // a card payment held for review may still be accepted for the booking as it is
      await assertNotUnderReview(tx, r.id);
      await tx.query('UPDATE reservations SET coupon_code = NULL, discount = 0, total = subtotal WHERE id = $1', [r.id]);
      await declinePending(tx, r.id, now);
    });
    return mustLoadReservation(deps.db, id);
  });
}

async function searchTrips(deps: Deps, origin: string, destination: string, tripDate: string, now: Date): Promise<TripSummary[]> {
  const rows = await deps.db.query<TripRow & { total_seats: number; unavailable: number; seat_types: string[] | string }>(
    `SELECT t.id, t.trip_date::text AS trip_date, t.coach_code, t.departure_at, t.arrival_at, t.fares, t.layout_id,
            r.origin_code, r.destination_code, l.coach_type,
            (SELECT count(*)::int FROM layout_seats s WHERE s.layout_id = t.layout_id AND s.name <> '${OPEN_SEAT_NAME}') AS total_seats,
            (SELECT array_agg(DISTINCT s.seat_type) FROM layout_seats s WHERE s.layout_id = t.layout_id AND s.name <> '${OPEN_SEAT_NAME}') AS seat_types,
            (SELECT count(*)::int FROM (
                SELECT rs.seat_name FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
                 WHERE rs.trip_id = t.id AND ${takenSql('$4')}
                UNION
                SELECT k.seat_name FROM seat_locks k WHERE k.trip_id = t.id AND k.expires_at > $4 AND k.seat_name <> '${OPEN_SEAT_NAME}'
             ) u) AS unavailable
       FROM trips t JOIN routes r ON r.id = t.route_id JOIN layouts l ON l.id = t.layout_id
      WHERE t.trip_date = $3::date AND r.origin_code = $1 AND r.destination_code = $2 AND t.status = 'OPEN' AND t.departure_at > $4
      ORDER BY t.departure_at, t.coach_code`,
    [origin, destination, tripDate, now],
  );
  if (rows.length === 0) return [];
  const stations = await deps.db.query<{ city_code: string; name: string }>(
    'SELECT city_code, name FROM bus_stations WHERE city_code = ANY($1::text[]) AND active ORDER BY offset_minutes, id',
    [[origin, destination]],
  );
  const boarding = stations.filter((s) => s.city_code === origin).map((s) => s.name);
  const dropping = stations.filter((s) => s.city_code === destination).map((s) => s.name);
  return rows.map((t) => {
    const fares = typeof t.fares === 'string' ? (JSON.parse(t.fares) as Record<string, number>) : t.fares;
    const types = sortSeatTypes(Array.isArray(t.seat_types) ? t.seat_types : String(t.seat_types ?? '').replace(/[{}"]/g, '').split(','));
    const prices = types.map((ty) => fares[ty]).filter((f): f is number => typeof f === 'number');
    return {
      tripId: t.id,
      tripDate: t.trip_date,
      coachCode: t.coach_code,
      coachType: t.coach_type,
      originCode: t.origin_code,
      destinationCode: t.destination_code,
      departureTime: toDhakaIso(t.departure_at),
      arrivalTime: toDhakaIso(t.arrival_at),
      durationMinutes: Math.round((t.arrival_at.getTime() - t.departure_at.getTime()) / 60_000),
      boardingStations: boarding,
      droppingStations: dropping,
      fareFrom: prices.length ? Math.min(...prices) : 0,
      availableSeats: Math.max(0, Number(t.total_seats) - Number(t.unavailable)),
      totalSeats: Number(t.total_seats),
      seatTypes: types,
    };
  });
}

async function assertCities(deps: Deps, codes: string[]): Promise<void> {
  const rows = await deps.db.query<{ code: string }>('SELECT code FROM cities WHERE code = ANY($1::text[])', [codes]);
  if (new Set(rows.map((r) => r.code)).size !== new Set(codes).size) throw new AppError('CITY_NOT_FOUND');
}

/** BUS_STATION_NOT_FOUND unless the station (when given, or when required) is in the city. */
async function assertStation(deps: Deps, id: number | null | undefined, cityCode: string, required = false): Promise<void> {
  if (id == null) {
    if (required) throw new AppError('BUS_STATION_NOT_FOUND');
    return;
  }
  const rows = await deps.db.query('SELECT 1 FROM bus_stations WHERE id = $1 AND city_code = $2 AND active', [id, cityCode]);
  if (rows.length === 0) throw new AppError('BUS_STATION_NOT_FOUND');
}

/** An ISO-8601 instant with an offset or Z, or null. */
function parseInstant(s: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(s)) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A positive integer path parameter, or VALIDATION_FAILED. */
export function parseId(v: string | undefined, field = 'reservationId'): number {
  if (!v || !/^[1-9]\d{0,9}$/.test(v) || Number(v) > MAX_ID) {
    throw new AppError('VALIDATION_FAILED', { fields: [{ path: field, message: 'Must be a positive whole number' }] });
  }
  return Number(v);
}

function normaliseMobile(m: string): string {
  const t = m.trim();
  return t.startsWith('001') ? t.slice(1) : t;
}

function minDate(a: Date, b: Date): Date {
  return a.getTime() <= b.getTime() ? a : b;
}
