/**
 * The error catalogue of docs/spec.md section 8: every code the API may answer with,
 * its English reason (the text a user sees when the app has no translation)
 * and the HTTP status the reference server sends with it.
 */
import { fallbackErrors } from './fallback-errors.ts'

export const errorCatalogue = {
  // Authentication
  BAD_CREDENTIALS: { status: 401, reason: 'Invalid Credentials' },
  USER_INACTIVE: { status: 403, reason: 'User inactive. Ask administrator.' },
  AGENT_INACTIVE: { status: 403, reason: 'Agent inactive. Ask administrator.' },
  PASSWORD_EXPIRED: { status: 403, reason: 'Password expired. Please reset.' },
  INVALID_OTP_PROVIDED: { status: 400, reason: 'Wrong OTP' },
  OTP_VALIDITY_EXPIRED: { status: 400, reason: 'OTP expired. Request OTP again.' },
  OTP_ALREADY_SENT: { status: 429, reason: 'OTP already sent. Check SMS and email.' },
  INVALID_DEVICE_ACCESS: { status: 403, reason: 'This device is not approved.' },
  DEVICE_INACTIVE: { status: 403, reason: 'This device has been deactivated.' },
  BRANCH_NOT_ASSIGNED: { status: 403, reason: 'No branch is assigned to you.' },
  BRANCH_INACTIVE: { status: 403, reason: 'Your branch is inactive.' },
  PERMISSION_DENIED: { status: 403, reason: 'You do not have permission to do this.' },
  MOBILE_ALREADY_REGISTERED: { status: 409, reason: 'This mobile no. is already registered. Please login.' },
  MOBILE_NOT_VERIFIED: { status: 403, reason: 'Mobile no. is not verified yet. Enter the verification code.' },

  // Trips and reservations
  TRIP_IS_NOT_AVAILABLE: { status: 404, reason: 'No available trip' },
  TRIP_IS_OPEN: { status: 409, reason: 'The trip is open.' },
  TRIP_IS_CLOSED: { status: 409, reason: 'The trip is closed.' },
  TRIP_IS_FOREIGN: { status: 409, reason: 'The trip belongs to another company.' },
  TRIP_NOT_ALLOWED: { status: 403, reason: 'The trip is not allowed.' },
  ORIGIN_NOT_ALLOWED: { status: 403, reason: 'Sales from this origin are not allowed.' },
  TRIP_OMITTED: { status: 409, reason: 'The trip has been omitted.' },
  TRIP_OMIT_PENDING: { status: 409, reason: 'The trip is pending omission.' },
  TRIP_RESERVED: { status: 409, reason: 'The trip is reserved.' },
  TRIP_RESERVATION_PENDING: { status: 409, reason: 'The trip reservation is pending.' },
  TRIP_NOT_RESERVABLE: { status: 409, reason: 'The trip is not reservable.' },
  PARTIAL_SALES_NOT_ALLOWED: { status: 409, reason: 'Intermediate sales is not allowed for this trip' },
  BOOKING_TIME_EXCEED: { status: 409, reason: 'The booking time has run out.' },
  MAX_SEAT_WARNING: { status: 400, reason: 'You can select at most' },
  SEAT_LIMIT_EXCEEDED: { status: 400, reason: 'Seat limit exceeded.' },
  SEAT_UNAVAILABLE: { status: 409, reason: 'These seats are NOT available' },
  WRONG_PNR_PIN: { status: 404, reason: 'Wrong PNR and/or PIN' },
  RESERVATION_NOT_ACCESSIBLE: { status: 403, reason: 'You cannot access this reservation.' },
  RESERVATION_NOT_CANCELLABLE: { status: 409, reason: 'This reservation cannot be cancelled.' },
  RESERVATION_CANCEL_TIME_EXPIRED: { status: 409, reason: 'The time to cancel this reservation has passed.' },
  TRIP_CLOSED_FOR_CANCELLATION: { status: 409, reason: 'The trip is closed for cancellation.' },
  DELAYED_CANCEL_NOT_ALLOWED: { status: 409, reason: 'Delayed cancellation is not allowed.' },
  CANNOT_ADJUST_TRIP_DEPARTURE_TIME: { status: 409, reason: 'Cannot adjust the departure time: seats already sold.' },
  RESERVATION_NOT_CHANGEABLE: { status: 409, reason: 'This ticket cannot be changed.' },
  RETURN_AMOUNT_MISMATCH: { status: 400, reason: 'Wrong return amount' },
  BOOKING_NOT_FOUND: { status: 404, reason: 'Booking not found.' },
  TICKET_LINK_INVALID: { status: 404, reason: 'Invalid ticket link.' },
  INVALID_EXPIRATION_TIME: { status: 400, reason: 'Invalid expiration time.' },
  INSUFFICIENT_BALANCE: { status: 409, reason: 'Insufficient balance.' },
  INVALID_COUPON: { status: 400, reason: 'This coupon code is not valid.' },
  PAYMENT_NOT_FOUND: { status: 404, reason: 'Payment not found.' },
  PAYMENT_DECLINED: { status: 402, reason: 'The payment was declined.' },
  PAYMENT_ALREADY_COMPLETED: { status: 409, reason: 'This reservation is already paid.' },
  PAYMENT_UNDER_REVIEW: { status: 409, reason: 'The payment is being reviewed by the payment gateway.' },
  PAYMENT_GATEWAY_UNAVAILABLE: {
    status: 503,
    reason: 'Card payment is not available right now. Please try again in a few minutes, or pay from your balance.',
  },
  COUPON_FIRST_BOOKING_ONLY: { status: 400, reason: 'This coupon is for your first booking only.' },
  COUPON_ALREADY_USED: { status: 400, reason: 'You have already used this coupon.' },
  COUPON_USED_UP: { status: 400, reason: 'This coupon has been used up.' },
  COUPON_MIN_FARE: { status: 400, reason: 'This coupon needs a higher fare.' },
  HOLD_EXTENSION_REFUSED: {
    status: 409,
    reason: 'These seats cannot be held any longer. Book them now, or they are released when the time runs out.',
  },
  HOLD_LIMIT_EXCEEDED: { status: 429, reason: 'Too many seats are held from your network. Book or release seats first.' },
  TRIP_NOT_SOLD_OUT: { status: 409, reason: 'Seats are still free on this trip: choose them on the seat map.' },
  WAITLIST_ALREADY_JOINED: { status: 409, reason: 'You are already on the waitlist of this trip.' },
  WAITLIST_NOT_JOINED: { status: 404, reason: 'You are not on the waitlist of this trip.' },
  SALE_NOT_OPEN: { status: 409, reason: 'This trip is not on sale yet.' },
  SEAT_HOLD_ENDED: { status: 409, reason: 'Your time on these seats has run out; they cannot be held by you again yet. Choose other seats.' },
  RETURN_SEATS_LOST: {
    status: 409,
    reason: 'The seats of your return trip were released before payment. Pay for the outbound trip alone, or choose the return trip again.',
  },
  QUEUE_ADMISSION_REFUSED: { status: 403, reason: 'Wait for your turn in the waiting room.' },

  // Not found
  AGENT_NOT_FOUND: { status: 404, reason: 'Agent not found.' },
  BUS_STATION_NOT_FOUND: { status: 404, reason: 'Bus station not found.' },
  CITY_NOT_FOUND: { status: 404, reason: 'City not found.' },
  COACH_NOT_FOUND: { status: 404, reason: 'Coach not found.' },
  PASSENGER_NOT_FOUND: { status: 404, reason: 'Passenger not found.' },
  REGISTRATION_NOT_FOUND: { status: 404, reason: 'This sign-up has expired or is already complete. Please sign up again.' },
  RESERVATION_NOT_FOUND: { status: 404, reason: 'Reservation not found.' },
  ROUTE_NOT_FOUND: { status: 404, reason: 'Route not found.' },
  SEAT_NOT_FOUND: { status: 404, reason: 'Seat not found.' },
  TRIP_NOT_FOUND: { status: 404, reason: 'Trip not found.' },
  NOT_FOUND: { status: 404, reason: 'Not found.' },

  // Others
  VALIDATION_FAILED: { status: 400, reason: 'Validation failed. Check your inputs.' },
  SMS_PROVIDER_SERVICE_UNAVAILABLE: { status: 503, reason: 'Failed to send SMS' },
  MOBILE_DEVICE_REGISTRATION_FAILED: { status: 500, reason: 'Mobile device registration failed.' },
  SALES_RESTRICTED: { status: 503, reason: 'System is in under maintenance' },
  TOO_MANY_REQUESTS: { status: 429, reason: 'Too many requests. Please wait a moment.' },
  TOO_MANY_ATTEMPTS: { status: 429, reason: 'Too many attempts. Try again later.' },
  // the session, the catch-all and the codes of no answer (contract/fallback-errors.ts)
  ...fallbackErrors,
} as const satisfies Record<string, { status: number; reason: string }>

export type ErrorCode = keyof typeof errorCatalogue

export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[]

/** True when `code` is a catalogue code. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(errorCatalogue, code)
}
