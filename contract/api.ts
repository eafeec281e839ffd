/**
 * The table of every /api route (docs/spec.md section 7 plus the paths the SPEC leaves
 * to configuration). Paths are relative to the API base (default `/api`);
 * `:name` marks a path parameter. `auth`: `required` answers 401 without a
 * valid bearer token; `optional` reads it when present (seat locks fall back
 * to the `X-Device-Id` header for visitors).
 */
import * as z from 'zod/mini'
import * as s from './schemas.ts'

type Method = 'GET' | 'POST' | 'PUT'
type Auth = 'none' | 'optional' | 'required'

interface RouteDef {
  method: Method
  path: string
  auth: Auth
  body?: z.ZodMiniType
  query?: z.ZodMiniType
  response: z.ZodMiniType
}

const def = <const T extends RouteDef>(r: T) => r

export const api = {
  // Authentication and profile
  passengerByMobile: def({ method: 'GET', path: '/getPassengerByMobile/:mobile', auth: 'none', response: s.passengerByMobileResponse }),
  register: def({ method: 'POST', path: '/register', auth: 'none', body: s.registerRequest, response: s.registerResponse }),
  login: def({ method: 'POST', path: '/checkPassenger', auth: 'none', body: s.loginRequest, response: s.session }),
  logout: def({ method: 'POST', path: '/logout', auth: 'required', response: z.boolean() }),
  verifyOtp: def({ method: 'POST', path: '/verifyOTP', auth: 'none', body: s.verifyOtpRequest, response: s.verifyOtpResponse }),
  verifyCancelTicketOtp: def({
    method: 'POST',
    path: '/verifyCancelTicketOTP',
    auth: 'optional',
    body: s.verifyCancelOtpRequest,
    response: z.boolean(),
  }),
  verifyMobile: def({ method: 'POST', path: '/verifyMobileVerificationCode', auth: 'none', body: s.verifyMobileRequest, response: s.session }),
  // The path parameter is the registration token /register answered.
  resendMobileCode: def({ method: 'GET', path: '/resendMobileVerificationCode/:registrationToken', auth: 'none', response: s.otpSentResponse }),
  setNewPassword: def({ method: 'POST', path: '/setNewPassword', auth: 'none', body: s.setNewPasswordRequest, response: s.session }),
  profile: def({ method: 'GET', path: '/profile/:id', auth: 'required', response: s.passenger }),
  updateProfile: def({ method: 'PUT', path: '/profile', auth: 'required', body: s.updateProfileRequest, response: s.passenger }),
  changePassword: def({ method: 'PUT', path: '/changePassword', auth: 'required', body: s.changePasswordRequest, response: z.boolean() }),
  sendOtp: def({ method: 'POST', path: '/sendOtp', auth: 'none', body: s.sendOtpRequest, response: s.otpSentResponse }),
  account: def({ method: 'GET', path: '/account/:id', auth: 'required', query: s.accountQuery, response: s.accountResponse }),
  topUp: def({ method: 'POST', path: '/account/topUp', auth: 'required', body: s.topUpRequest, response: s.paymentResponse }),
  myReservations: def({ method: 'GET', path: '/reservations', auth: 'required', response: z.array(s.reservation) }),

  // Lookups
  originCities: def({ method: 'GET', path: '/originCities', auth: 'none', response: z.array(s.city) }),
  destinationCities: def({ method: 'GET', path: '/destinationCities', auth: 'none', response: z.array(s.city) }),
  timePeriods: def({ method: 'GET', path: '/timePeriods', auth: 'none', response: z.array(s.timePeriod) }),
  busStations: def({
    method: 'POST',
    path: '/busStationsByOriginDestinationAndTripDate',
    auth: 'none',
    body: s.busStationsRequest,
    response: s.busStationsResponse,
  }),
  routes: def({ method: 'GET', path: '/routes', auth: 'none', response: z.array(s.route) }),
  announcements: def({ method: 'GET', path: '/announcements', auth: 'none', response: z.array(s.announcement) }),
  offers: def({ method: 'GET', path: '/offers', auth: 'none', response: z.array(s.offer) }),
  company: def({ method: 'GET', path: '/company', auth: 'none', response: s.company }),

  // Reservation
  tripSearch: def({ method: 'POST', path: '/reservation/tripSearch', auth: 'none', body: s.tripSearchRequest, response: s.tripSearchResponse }),
  tripDetails: def({ method: 'POST', path: '/reservation/tripDetails', auth: 'optional', body: s.tripDetailsRequest, response: s.tripDetails }),
  seatLock: def({ method: 'POST', path: '/reservation/seatLock', auth: 'optional', body: s.seatLockRequest, response: s.seatLockResponse }),
  extendSeatLock: def({
    method: 'POST',
    path: '/reservation/extendSeatLock',
    auth: 'optional',
    body: s.extendSeatLockRequest,
    response: s.extendSeatLockResponse,
  }),
  booking: def({ method: 'POST', path: '/reservation/booking', auth: 'required', body: s.bookingRequest, response: s.reservation }),
  extendBooking: def({
    method: 'POST',
    path: '/reservation/extendBookingTime',
    auth: 'required',
    body: s.extendBookingRequest,
    response: s.reservation,
  }),
  cancelBooking: def({ method: 'POST', path: '/reservation/cancelBooking', auth: 'required', body: s.reservationIdRequest, response: s.reservation }),
  payment: def({ method: 'POST', path: '/reservation/payment', auth: 'required', body: s.reservationIdRequest, response: s.paymentResponse }),
  payFromBalance: def({
    method: 'POST',
    path: '/reservation/payFromBalance',
    auth: 'required',
    body: s.reservationIdRequest,
    response: s.reservation,
  }),
  paymentSuccess: def({ method: 'POST', path: '/reservation/success', auth: 'optional', body: s.paymentResultRequest, response: s.paymentResult }),
  paymentFailure: def({ method: 'POST', path: '/reservation/failure', auth: 'optional', body: s.paymentResultRequest, response: s.paymentResult }),
  reservationById: def({ method: 'GET', path: '/reservation/details/:id', auth: 'required', response: s.reservation }),
  reservationByPnr: def({ method: 'GET', path: '/reservation/details/:pnr/:pin', auth: 'optional', response: s.reservation }),
  cancelInitialize: def({ method: 'GET', path: '/reservation/cancelInitialize/:pnr/:pin', auth: 'optional', response: s.cancelInitializeResponse }),
  cancel: def({ method: 'GET', path: '/reservation/cancel/:pnr/:pin/:otp', auth: 'optional', response: s.reservation }),
  contactUs: def({ method: 'POST', path: '/reservation/contactUs', auth: 'none', body: s.contactRequest, response: s.contactResponse }),
  applyCoupon: def({
    method: 'GET',
    path: '/reservation/booking/applyDiscountCoupon/:reservationId/:couponCode',
    auth: 'required',
    response: s.reservation,
  }),
  removeCoupon: def({
    method: 'GET',
    path: '/reservation/booking/removeDiscountCoupon/:reservationId/:couponCode',
    auth: 'required',
    response: s.reservation,
  }),
  resendReservationEmail: def({ method: 'GET', path: '/reservation/resendReservationEmail/:pnr/:pin', auth: 'optional', response: z.boolean() }),
} as const

export type Api = typeof api
export type RouteName = keyof Api
/** The `data` type a route answers with. */
export type ResponseOf<N extends RouteName> = z.infer<Api[N]['response']>
/** The request body type of a route (never for routes without a body). */
export type BodyOf<N extends RouteName> = Api[N] extends { body: infer B extends z.ZodMiniType } ? z.infer<B> : never

/** Fills `:name` parameters of a route path, URI-encoding each value. */
export function pathOf(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:(\w+)/g, (_, k: string) => {
    const v = params[k]
    if (v === undefined) throw new Error(`missing path parameter ${k} for ${path}`)
    return encodeURIComponent(String(v))
  })
}
