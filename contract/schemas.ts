/**
 * The /api wire format: every request and response body, as zod/mini schemas
 * (small in the browser bundle). Imported by src/ and server/, imports neither.
 *
 * Conventions:
 * - success body `{ data: T }`, failure body `{ error: { code, reason, fields? } }`;
 * - instants are ISO-8601 strings with offset (`2026-11-22T08:30:00+06:00`);
 *   calendar dates are `yyyy-LL-dd` in Asia/Dhaka;
 * - money is whole Taka (integers); ids are PostgreSQL int4 (at most MAX_ID);
 * - request objects are strict: unknown fields are refused with VALIDATION_FAILED;
 * - request strings (body, query, path) never hold U+0000 or an unpaired UTF-16
 *   surrogate (PostgreSQL text cannot store them): see `isStorableText`.
 */
import * as z from 'zod/mini'
import { id, instant } from './scalars.ts'
import {
  coachTypes,
  emailPattern,
  FIELD_MAX,
  isCalendarDate,
  isInstant,
  MAX_SEATS,
  mobilePattern,
  PASSWORD_MAX,
  PASSWORD_MIN,
  passwordSpecialPattern,
  queueTokenPattern,
  seatTypes,
  TOP_UP_MAX,
  TOP_UP_MIN,
  WAITLIST_MAX_SEATS,
} from './values.ts'

export {
  coachTypes,
  FIELD_MAX,
  TOP_UP_MAX,
  TOP_UP_MIN,
  HOLD_MINUTES,
  INFINITE_SEAT_LIMIT,
  isCalendarDate,
  isInstant,
  isStorableText,
  MAX_HOLD_MINUTES,
  MAX_HOLD_EXTENSIONS,
  MAX_ID,
  MAX_SEATS,
  MAX_YEAR,
  MIN_YEAR,
  mobilePattern,
  emailPattern,
  PASSWORD_MIN,
  PASSWORD_MAX,
  OPEN_SEAT_NAME,
  OTP_RESEND_SECONDS,
  passwordSpecials,
  passwordSpecialPattern,
  reservationStatus,
  seatStatus,
  seatTypes,
  WAITLIST_MAX_SEATS,
} from './values.ts'

// ---------- shared primitives ----------

export { id, instant }

const str = (max = 200) => z.string().check(z.maxLength(max))
const text = (min: number, max: number) => z.string().check(z.trim(), z.minLength(min), z.maxLength(max))
export const mobile = z.string().check(z.trim(), z.regex(mobilePattern))
export const email = z.string().check(z.trim(), z.maxLength(FIELD_MAX.email), z.regex(emailPattern))
export const password = z
  .string()
  .check(
    z.minLength(PASSWORD_MIN),
    z.maxLength(PASSWORD_MAX),
    z.regex(/[A-Z]/),
    z.regex(/[a-z]/),
    z.regex(/\d/),
    z.regex(passwordSpecialPattern),
    z.regex(/^\S*$/),
  )

// The pattern is the calendar's shape, years 1900-2199 (what forms and test generators read); the refinement drops 30 February.
export const isoDate = z
  .string()
  .check(z.regex(/^(?:19|2[01])\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/), z.refine(isCalendarDate, 'Not a calendar date'))
/**
 * An instant in a request: ISO-8601 with `Z` or an offset, on a real date and time. The pattern is the
 * shape, years 1900-2199 (what test generators read); the refinement drops 30 February (isInstant).
 */
export const instantInput = z
  .string()
  .check(
    z.regex(
      /^(?:19|2[01])\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/,
    ),
    z.refine(isInstant, 'Not a date and time'),
  )
export const money = z.number().check(z.int())
export const cityCode = z.string().check(z.regex(/^[A-Z]{3}$/))
export const seatName = z.string().check(z.regex(/^[A-Z0-9]{1,6}$/))
export const otpCode = z.string().check(z.regex(/^\d{6}$/))

// ---------- envelope ----------

export const errorBody = z.object({
  error: z.object({
    code: z.string(),
    reason: z.string(),
    fields: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
    /** Values of the code's message, e.g. `{ minutes: 12 }` for TOO_MANY_ATTEMPTS. */
    values: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
  }),
})
export type ErrorBody = z.infer<typeof errorBody>

// ---------- lookups ----------

export const city = z.object({ code: cityCode, name: z.string(), nameBn: z.string() })
export const timePeriod = z.object({
  label: z.string(),
  /** The label in Bengali, when the network file has one (the app shows `label`, marked as English, otherwise). */
  labelBn: z.nullable(z.string()),
  value: z.string(),
  integerValue: z.number(),
})
export const announcement = z.object({ id: z.number(), title: z.string(), titleBn: z.string() })
export const offer = z.object({
  id: z.number(),
  title: z.string(),
  titleBn: z.string(),
  description: z.string(),
  /** The description in Bengali, when the network file has one. */
  descriptionBn: z.nullable(z.string()),
  couponCode: z.string(),
  discountPercent: z.number(),
  maxDiscount: money,
  validUntil: isoDate,
})
export const busStation = z.object({
  id,
  name: z.string(),
  cityCode,
  address: z.string(),
  phone: z.string(),
  /** Reporting time at this counter for the asked trip (instant), when asked for a trip. */
  time: z.optional(z.nullable(instant)),
})
export const route = z.object({ id, originCode: cityCode, destinationCode: cityCode, distanceKm: z.number(), durationMinutes: z.number() })
export const company = z.object({ name: z.string(), phone: z.string(), email: z.string() })

export const busStationsRequest = z.strictObject({
  originCode: cityCode,
  destinationCode: cityCode,
  tripDate: isoDate,
  tripId: z.optional(z.nullable(id)),
})
export const busStationsResponse = z.object({ boarding: z.array(busStation), dropping: z.array(busStation) })

// ---------- trips and seats ----------

export const tripSearchRequest = z.strictObject({
  originCode: cityCode,
  destinationCode: cityCode,
  tripDate: isoDate,
})
export const tripSummary = z.object({
  tripId: id,
  tripDate: isoDate,
  coachCode: z.string(),
  coachType: z.enum(coachTypes),
  originCode: cityCode,
  destinationCode: cityCode,
  departureTime: instant,
  arrivalTime: instant,
  durationMinutes: z.number(),
  boardingStations: z.array(z.string()),
  droppingStations: z.array(z.string()),
  fareFrom: money,
  availableSeats: z.number(),
  totalSeats: z.number(),
  seatTypes: z.array(z.enum(seatTypes)),
  /** When the trip goes on sale, while it is not yet on sale by the server's clock; null (or absent) once it is. */
  saleOpensAt: z.optional(z.nullable(instant)),
})
export const tripSearchResponse = z.array(tripSummary)

export const seat = z.object({
  name: z.string(),
  row: z.number(),
  column: z.number(),
  deck: z.enum(['LOWER', 'UPPER']),
  seatType: z.enum(seatTypes),
  fare: money,
  /** SPEC seat status code: available 0, sold 1, booked 2, admin booked 3, linked 13. */
  status: z.number(),
  /** Held by another holder's unexpired lock (unavailable to the caller). */
  lockedByOther: z.boolean(),
  /** Held by the caller's own unexpired lock. */
  lockedByMe: z.boolean(),
})
export const seatLayout = z.object({
  rows: z.number(),
  columns: z.number(),
  /** Column indexes (0-based) that are aisles. */
  aisleColumns: z.array(z.number()),
  decks: z.array(z.enum(['LOWER', 'UPPER'])),
  seats: z.array(seat),
})
export const tripDetailsRequest = z.strictObject({
  tripId: id,
  originCode: cityCode,
  destinationCode: cityCode,
  originBusStationId: z.nullable(id),
  destinationBusStationId: z.nullable(id),
})
export const tripDetails = z.object({
  tripId: id,
  tripDate: isoDate,
  originCode: cityCode,
  destinationCode: cityCode,
  departureTime: instant,
  arrivalTime: instant,
  coach: z.object({ code: z.string(), type: z.enum(coachTypes), name: z.string() }),
  availableSeats: z.number(),
  seatLayout,
  /** Seats this caller may still take on this trip (MAX_SEATS, or -999 for no limit), within what is left of `dateSeatLimit`. */
  remainingSeatLimit: z.number(),
  /**
   * The seats one passenger may buy for this trip's travel date, all trips together (`cap`), and what
   * this caller has left of them (`left`; null when not signed in).
   */
  dateSeatLimit: z.optional(z.object({ cap: z.number(), left: z.nullable(z.number()) })),
  /** Expiry of the caller's current seat locks on this trip, if any. */
  expirationTime: z.nullable(instant),
  /** When the trip goes on sale, while it is not yet (seats can be seen, not held: SALE_NOT_OPEN); null (or absent) once it is. */
  saleOpensAt: z.optional(z.nullable(instant)),
})

/**
 * Joining or polling the waiting room of a rush date: the route and travel date, and the queue
 * token this browser was issued (null the first time; join answers one).
 */
export const queueRequest = z.strictObject({
  tripDate: isoDate,
  originCode: cityCode,
  destinationCode: cityCode,
  token: z.nullable(z.string().check(z.regex(queueTokenPattern))),
  /** Join the queue (or find one's place in it); without it only read the place. */
  join: z.optional(z.boolean()),
  /** With join: an expired admission's place goes to the back of the queue. */
  again: z.optional(z.boolean()),
})
/** Where a place stands: `open` no queue (choose seats), `notJoined`, `preQueue` (drawn at opensAt), `waiting`, `admitted` (until admittedUntil), `expired`, `soldOut`. */
export const queueStates = ['open', 'notJoined', 'preQueue', 'waiting', 'admitted', 'expired', 'soldOut'] as const
/** The waiting room's answer: a waiting place's poll from the server's memory of the date, else one read (server/queue/memory.ts). */
export const queueStatus = z.object({
  state: z.enum(queueStates),
  opensAt: z.nullable(instant),
  /** 1-based place among those still waiting; null before the draw. */
  place: z.nullable(z.number()),
  ahead: z.nullable(z.number()),
  /** Everyone still waiting (before the hour: in the pre-queue). */
  waiting: z.number(),
  /** Seats of the route that date neither booked nor held, as of the last second. */
  seatsLeft: z.nullable(z.number()),
  /** Seconds until this place is admitted at the present rate; null when not waiting. */
  estimateSeconds: z.nullable(z.number()),
  admitPerMinute: z.number(),
  admittedUntil: z.nullable(instant),
  /** When to ask again. */
  pollSeconds: z.number(),
  /** The queue token to keep (join answers it; status echoes the one sent). */
  token: z.nullable(z.string()),
})

/** The trip as a seat-lock request names it, and the seats. */
const heldSeats = {
  tripId: z.optional(id),
  tripDate: isoDate,
  coachCode: str(40),
  originCode: cityCode,
  destinationCode: cityCode,
  seatNames: z.array(seatName).check(z.minLength(1), z.maxLength(MAX_SEATS)),
}
export const seatLockRequest = z.strictObject({ ...heldSeats, locked: z.boolean() })
/** Truthy when the lock is yours (or the unlock done), `false` when another holder has a seat. */
export const seatLockResponse = z.union([z.literal(false), z.object({ seatNames: z.array(z.string()), expirationTime: z.nullable(instant) })])
/**
 * "Extend booking time" for a hold before booking: the held seats, kept until `expirationTime` (after now, at most the maximum).
 * On a round trip's return leg, `outboundReservationId`: the caller's booked outbound, kept as long (within its own maximum).
 */
export const extendSeatLockRequest = z.strictObject({ ...heldSeats, expirationTime: instantInput, outboundReservationId: z.optional(id) })
/** The hold after the extension: its seats, the new expiry, the most it may reach and the extensions it has left. */
export const extendSeatLockResponse = z.object({
  seatNames: z.array(z.string()),
  expirationTime: instant,
  maxExpirationTime: instant,
  extensionsLeft: z.number(),
})

// ---------- waitlist of a sold-out trip ----------

/** Joining a sold-out trip's waitlist for 1 to WAITLIST_MAX_SEATS seats. */
export const waitlistJoinRequest = z.strictObject({ tripId: id, seats: z.number().check(z.int(), z.gte(1), z.lte(WAITLIST_MAX_SEATS)) })
/** The trip whose waitlist the caller leaves. */
export const waitlistTripRequest = z.strictObject({ tripId: id })
/** The caller's place on a trip's waitlist: null when not on it (or left). */
export const waitlistEntry = z.nullable(
  z.object({
    status: z.enum(['WAITING', 'OFFERED', 'BOOKED', 'LAPSED']),
    seats: z.number(),
    /** 1 for the first still waiting; null once offered or ended. */
    place: z.nullable(z.number()),
    /** Seats held for the caller while OFFERED. */
    offeredSeats: z.array(z.string()),
    /** When the offer ends (OFFERED) or ended. */
    offerExpiresAt: z.nullable(instant),
  }),
)

// ---------- passengers, sessions ----------

export const passenger = z.object({
  id,
  mobile: z.string(),
  fullName: z.string(),
  email: z.string(),
  city: z.string(),
  balance: money,
  createdAt: instant,
})
export const session = z.object({
  token: z.string(),
  expiresAt: instant,
  passenger,
  company,
})
export const passengerByMobileResponse = z.object({ mobile: z.string(), registered: z.boolean() })

/** POST /register: sign-up; sends an SMS verification code. */
export const registerRequest = z.strictObject({
  mobile,
  fullName: text(1, FIELD_MAX.fullName),
  email,
  city: text(1, FIELD_MAX.city),
  password,
})
export const otpSentResponse = z.object({ mobile: z.string(), resendAfterSeconds: z.number(), expiresInSeconds: z.number() })
/**
 * POST /register answers a registration token with the code sent: only the browser that
 * holds it can confirm that code (or ask for a new one), so a second registration of the
 * same mobile never changes the first one's details.
 */
export const registerResponse = z.object({ ...otpSentResponse.shape, registrationToken: z.string() })
export const verifyMobileRequest = z.strictObject({ mobile, code: otpCode, registrationToken: str(200) })
/** POST /checkPassenger: login by mobile and password. */
export const loginRequest = z.strictObject({
  mobile,
  password: z.string().check(z.minLength(1), z.maxLength(FIELD_MAX.password)),
  staySignedIn: z.optional(z.boolean()),
})
export const otpPurpose = z.enum(['LOGIN', 'RESET_PASSWORD'])
export const sendOtpRequest = z.strictObject({ mobile, purpose: otpPurpose })
/** POST /verifyOTP: LOGIN answers a session; RESET_PASSWORD answers a reset token for /setNewPassword. */
export const verifyOtpRequest = z.strictObject({ mobile, otp: otpCode, purpose: otpPurpose })
export const verifyOtpResponse = z.object({ session: z.nullable(session), resetToken: z.nullable(z.string()) })
export const setNewPasswordRequest = z.strictObject({ mobile, resetToken: str(200), password })
export const updateProfileRequest = z.strictObject({ fullName: text(1, FIELD_MAX.fullName), email, city: text(1, FIELD_MAX.city) })
export const changePasswordRequest = z.strictObject({
  currentPassword: z.string().check(z.minLength(1), z.maxLength(FIELD_MAX.password)),
  newPassword: password,
})

/** Why a ledger row was written, beyond its kind. */
export const ledgerReason = z.enum(['TICKET_CANCELED', 'BOOKING_ENDED', 'COUPON_REFUSED', 'TRIP_CANCELED', 'TICKET_CHANGED'])
export const transaction = z.object({
  id,
  createdAt: instant,
  amount: money,
  balanceAfter: money,
  kind: z.enum(['TOP_UP', 'TICKET_PAYMENT', 'REFUND', 'OPENING']),
  /** Why a refund was made; the app says it in the passenger's language (null: the kind says it all, or an older row). */
  reason: z.nullable(ledgerReason),
  /** The English text written with the row: what older rows without a reason say. */
  description: z.string(),
  reservationId: z.nullable(id),
  /** The PNR of the row's reservation, when it has one. */
  pnr: z.nullable(z.string()),
})
export const accountResponse = z.object({ balance: money, transactions: z.array(transaction) })
/** Query string of GET /account/{id}: `from` and `to` dates (yyyy-LL-dd, Asia/Dhaka, inclusive). */
export const accountQuery = z.strictObject({ from: z.optional(isoDate), to: z.optional(isoDate) })
export const topUpRequest = z.strictObject({ amount: z.number().check(z.int(), z.gte(TOP_UP_MIN), z.lte(TOP_UP_MAX)) })

// ---------- reservations, payments ----------

/** What the passenger picks on the booking page: a mobile wallet on the gateway's page, or a card. */
export const payChoices = ['bkash', 'nagad', 'rocket', 'card'] as const
/** A value of `payChoices`. */
export type PayChoice = (typeof payChoices)[number]
/**
 * Where a gateway payment's money came from, as the gateway's validation said: a card, a named
 * mobile wallet, another mobile wallet, or internet banking. Refunds go back there.
 */
export const paySources = ['card', 'bkash', 'nagad', 'rocket', 'wallet', 'bank'] as const
/** A value of `paySources`. */
export type PaySource = (typeof paySources)[number]

/** Why a reservation was cancelled (`Reservation.cancelReason`). */
export const cancelReasons = ['TICKET_CANCELED', 'BOOKING_CANCELED', 'EXPIRED', 'TRIP_CANCELED'] as const
export const reservationSeat = z.object({ name: z.string(), seatType: z.enum(seatTypes), fare: money })
/**
 * A cancelled ticket's (or a refused payment's) refund: to the card it was paid with or to the
 * account balance, and where it stands (a refund to the card takes the gateway a while).
 */
export const refundInfo = z.object({
  to: z.enum(['CARD', 'BALANCE']),
  amount: money,
  status: z.enum(['PROCESSING', 'REFUNDED', 'FAILED']),
  refundedAt: z.nullable(instant),
})
/**
 * The other leg of a round trip, as a leg's booking or ticket shows it: `leg` says which this
 * reservation is; `other` is the other one's id, PNR (null until paid), status, trip, seats and total.
 */
export const roundTripLeg = z.object({
  leg: z.enum(['outbound', 'return']),
  other: z.object({
    id,
    pnr: z.nullable(z.string()),
    status: z.number(),
    tripId: id,
    tripDate: isoDate,
    departureTime: instant,
    origin: city,
    destination: city,
    seats: z.array(z.string()),
    total: money,
    expirationTime: z.nullable(instant),
  }),
})
export const reservation = z.object({
  id,
  status: z.number(),
  pnr: z.nullable(z.string()),
  pin: z.nullable(z.string()),
  tripId: id,
  tripDate: isoDate,
  coach: z.object({ code: z.string(), type: z.enum(coachTypes), name: z.string() }),
  origin: city,
  destination: city,
  departureTime: instant,
  arrivalTime: instant,
  boardingStation: busStation,
  droppingStation: busStation,
  seats: z.array(reservationSeat),
  /** Seats cancelled on their own (the ticket's other seats stay valid); absent when none. */
  canceledSeats: z.optional(z.array(reservationSeat)),
  passengerName: z.string(),
  passengerMobile: z.string(),
  passengerEmail: z.nullable(z.string()),
  fare: z.object({ subtotal: money, discount: money, total: money, couponCode: z.nullable(z.string()) }),
  /** Booked reservations expire at this instant unless paid. */
  expirationTime: z.nullable(instant),
  maxExpirationTime: z.nullable(instant),
  paymentMethod: z.nullable(z.enum(['CARD', 'BALANCE'])),
  /** For a gateway payment (paymentMethod CARD, or a refused late one): where the money came from (absent from older servers). */
  paidWith: z.optional(z.nullable(z.enum(paySources))),
  paidAt: z.nullable(instant),
  canceledAt: z.nullable(instant),
  refundAmount: z.nullable(money),
  /**
   * Why a cancelled reservation (status 5 or 14) ended: the passenger cancelled the ticket
   * or the booking, the booking expired unpaid, or the operator cancelled the trip; null
   * while it is live (and for rows cancelled before reasons were recorded).
   */
  cancelReason: z.nullable(z.enum(cancelReasons)),
  /** The operator's words when it cancelled the trip (TRIP_CANCELED), else null. */
  operatorReason: z.nullable(z.string()),
  /** The same words in Bengali when the operator gave them, else null (absent from older servers). */
  operatorReasonBn: z.optional(z.nullable(z.string())),
  /** The trip a moved ticket (status 10 or 14) was sold for: its coach and departure; else null. */
  movedFrom: z.nullable(z.object({ coachCode: z.string(), departureTime: instant })),
  /** Where the refund goes and its state; null when nothing was refunded (absent from older servers). */
  refund: z.optional(z.nullable(refundInfo)),
  /** A live ticket's QR code: its PNR, trip, seats and name signed with the operator's key (contract/ticket-code.ts); else null. */
  ticketCode: z.optional(z.nullable(z.string())),
  /** A round trip's other leg (this one is `leg`); absent or null for a single journey. */
  roundTrip: z.optional(z.nullable(roundTripLeg)),
  createdAt: instant,
})
export const bookingRequest = z.strictObject({
  tripId: id,
  seatNames: z.array(seatName).check(z.minLength(1), z.maxLength(MAX_SEATS)),
  boardingStationId: id,
  droppingStationId: id,
  passengerName: text(1, FIELD_MAX.passengerName),
  passengerMobile: mobile,
  passengerEmail: z.optional(z.nullable(email)),
  /** A round trip's return leg: the caller's live outbound booking it returns from (paid together with it). */
  outboundReservationId: z.optional(id),
})
export const reservationIdRequest = z.strictObject({ reservationId: id })
/** POST /reservation/payment: the booking, and how the passenger pays on the gateway's page (a card when absent). */
export const paymentRequest = z.strictObject({
  reservationId: id,
  payWith: z.optional(z.enum(payChoices)),
  /** A round trip whose return seats were lost (RETURN_SEATS_LOST): the passenger agrees to pay the outbound booking alone. */
  outboundOnly: z.optional(z.boolean()),
})
/** POST /reservation/payFromBalance: the booking (a round trip's outbound pays both legs), `outboundOnly` as for a card payment. */
export const payFromBalanceRequest = z.strictObject({ reservationId: id, outboundOnly: z.optional(z.boolean()) })
export const extendBookingRequest = z.strictObject({ reservationId: id, expirationTime: instantInput })
/**
 * A card payment opened: where the browser goes, and the result token of this tab (kept in
 * session storage, sent to /reservation/success and /failure: the result in full, signed in or not).
 */
export const paymentResponse = z.object({ paymentId: z.string(), redirectUrl: z.string(), resultToken: z.string() })
/** POST /reservation/success and /reservation/failure: the gateway's payment id, and the tab's result token if it has one. */
export const paymentResultRequest = z.strictObject({ paymentId: str(100), resultToken: z.optional(str(100)) })
/**
 * A payment's result. `full` false (neither the result token nor the payer's session): the
 * status alone, `reservation` and `balance` null.
 */
export const paymentResult = z.object({
  paymentId: z.string(),
  full: z.boolean(),
  status: z.enum(['PENDING', 'APPROVED', 'DECLINED', 'REVIEW']),
  purpose: z.enum(['RESERVATION', 'TOP_UP', 'CHANGE']),
  amount: money,
  reservation: z.nullable(reservation),
  balance: z.nullable(money),
})
/** One part of a quoted refund: back to a payment's source (`paidWith`), or to the balance. */
const refundPart = z.object({ to: z.enum(['CARD', 'BALANCE']), amount: money, paidWith: z.nullable(z.enum(paySources)) })
export const cancelInitializeResponse = z.object({
  reservationId: id,
  refundAmount: money,
  cancellationCharge: money,
  chargePercent: z.number(),
  policy: z.string(),
  otpSentTo: z.string(),
  resendAfterSeconds: z.number(),
  /** Where the refund will go: the card the ticket was paid with, or the account balance (absent from older servers). */
  refundTo: z.optional(z.enum(['CARD', 'BALANCE'])),
  /** With refundTo CARD: where the money came from, so the quote names it ("your bKash wallet"). */
  paidWith: z.optional(z.nullable(z.enum(paySources))),
  /** Where each part of the refund goes, as the cancel sends it: back to each payment's source (by `paidWith`), the rest to the balance. */
  refundParts: z.optional(z.array(refundPart)),
})
/**
 * Query string of the cancel quote and the cancel: `seats`, the comma-separated seats of the
 * ticket to cancel (absent: the whole ticket). Each seat once, at most MAX_SEATS.
 */
export const cancelSeatsQuery = z.strictObject({
  seats: z.optional(
    z.string().check(
      z.maxLength(100),
      z.regex(/^[A-Z0-9]{1,6}(,[A-Z0-9]{1,6})*$/, 'Seats separated by commas, like A1,A2'),
      z.refine((v) => v.split(',').length <= MAX_SEATS, `At most ${MAX_SEATS} seats`),
      z.refine((v) => new Set(v.split(',')).size === v.split(',').length, 'A seat is named twice'),
    ),
  ),
})
/** POST /reservation/changeQuote: the signed-in owner's ticket, the trip of its route to move it to, and the seats chosen there (as many as it has). */
export const changeQuoteRequest = z.strictObject({
  reservationId: id,
  tripId: id,
  seatNames: z.array(seatName).check(z.minLength(1), z.maxLength(MAX_SEATS)),
})
/**
 * What moving a ticket to `tripId` costs: its fare now (`fare`, what was paid less any seats
 * cancelled), the new seats' fare less the ticket's coupon discount (`newFare`), the operator's
 * change charge; then `toPay` (> 0) or `refund` (> 0), never both, and where a refund goes.
 */
export const changeQuoteResponse = z.object({
  reservationId: id,
  fromTripId: id,
  tripId: id,
  seats: z.array(reservationSeat),
  fare: money,
  newFare: money,
  charge: money,
  toPay: money,
  refund: money,
  refundTo: z.enum(['CARD', 'BALANCE']),
  paidWith: z.nullable(z.enum(paySources)),
  /** Where each part of `refund` would go (as for a cancel's quote). */
  refundParts: z.optional(z.array(refundPart)),
})
/** How a change's difference is paid: from the balance, or on the gateway's page (a wallet or a card). */
export const changePayChoices = ['balance', ...payChoices] as const
/**
 * POST /reservation/change: the quote's request, the trip the ticket is on as the passenger saw it
 * (another change of it since: refused), the amounts they were shown (RETURN_AMOUNT_MISMATCH when
 * they differ now) and how to pay a difference (`balance` when absent).
 */
export const changeTicketRequest = z.strictObject({
  reservationId: id,
  tripId: id,
  seatNames: z.array(seatName).check(z.minLength(1), z.maxLength(MAX_SEATS)),
  fromTripId: id,
  toPay: money,
  refund: money,
  payWith: z.optional(z.enum(changePayChoices)),
})
/** A change done (`reservation`, the ticket on its new trip), or its difference to pay on the gateway's page (`payment`). */
export const changeTicketResponse = z.object({
  reservation: z.nullable(reservation),
  payment: z.nullable(paymentResponse),
})
export const verifyCancelOtpRequest = z.strictObject({ pnr: str(20), pin: str(10), otp: otpCode })
export const contactRequest = z.strictObject({
  name: text(1, FIELD_MAX.fullName),
  email,
  mobile: z.optional(z.union([mobile, z.literal('')])),
  subject: text(1, FIELD_MAX.subject),
  message: text(1, FIELD_MAX.message),
})
export const contactResponse = z.object({ id })

// ---------- development outbox ----------

export const outboxMessage = z.object({
  id,
  channel: z.enum(['SMS', 'EMAIL']),
  to: z.string(),
  subject: z.nullable(z.string()),
  body: z.string(),
  code: z.nullable(z.string()),
  createdAt: instant,
})

export type City = z.infer<typeof city>
export type TimePeriod = z.infer<typeof timePeriod>
export type Announcement = z.infer<typeof announcement>
export type Offer = z.infer<typeof offer>
export type BusStation = z.infer<typeof busStation>
export type Company = z.infer<typeof company>
export type TripSummary = z.infer<typeof tripSummary>
export type Seat = z.infer<typeof seat>
export type WaitlistEntry = z.infer<typeof waitlistEntry>
export type SeatLayout = z.infer<typeof seatLayout>
export type TripDetails = z.infer<typeof tripDetails>
export type SeatLockRequest = z.infer<typeof seatLockRequest>
export type QueueStatus = z.infer<typeof queueStatus>
export type SeatLockResponse = z.infer<typeof seatLockResponse>
export type ExtendSeatLockRequest = z.infer<typeof extendSeatLockRequest>
export type ExtendSeatLockResponse = z.infer<typeof extendSeatLockResponse>
export type Passenger = z.infer<typeof passenger>
export type Session = z.infer<typeof session>
export type Transaction = z.infer<typeof transaction>
/** Why a ledger row was written, beyond its kind. */
export type LedgerReason = z.infer<typeof ledgerReason>
export type Reservation = z.infer<typeof reservation>
export type RefundInfo = z.infer<typeof refundInfo>
export type RoundTripLeg = z.infer<typeof roundTripLeg>
export type PaymentResult = z.infer<typeof paymentResult>
export type CancelInitialize = z.infer<typeof cancelInitializeResponse>
export type ChangeQuote = z.infer<typeof changeQuoteResponse>
export type ChangeTicketResult = z.infer<typeof changeTicketResponse>
export type OutboxMessage = z.infer<typeof outboxMessage>
export type SeatType = (typeof seatTypes)[number]
export type CoachType = (typeof coachTypes)[number]

export const ticketCheckQuery = z.strictObject({ date: isoDate })
/**
 * What the checker page keeps for offline checks: the operator's public keys, the trips of a
 * day, and the revocation list of those trips' cancelled and changed tickets (a code of
 * `pnrHash`, hex SHA-256 of its PNR, on `tripId` and signed before `before` is void; `before`
 * null: every code of it).
 */
export const ticketCheck = z.object({
  /** The operator's raw Ed25519 public keys, base64url: the current one first. */
  keys: z.array(z.string()),
  trips: z.array(z.object({ id, tripDate: isoDate, coachCode: z.string(), origin: city, destination: city, departureTime: instant })),
  revoked: z.array(z.object({ tripId: id, pnrHash: z.string(), before: z.nullable(instant) })),
  fetchedAt: instant,
})
export type TicketCheck = z.infer<typeof ticketCheck>
