/**
 * The table of every /api route (docs/spec.md section 7 plus the paths the SPEC leaves
 * to configuration) with its schemas: each entry is contract/routes.ts's method, path and
 * authentication (zod-free, for the browser's fetch wrapper) plus the request and response
 * schemas the server validates with and the app's types come from.
 */
import * as z from 'zod/mini'
import * as s from './schemas.ts'
import { pathOf, routes, type Auth, type Method } from './routes.ts'

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
  passengerByMobile: def({ ...routes.passengerByMobile, response: s.passengerByMobileResponse }),
  register: def({ ...routes.register, body: s.registerRequest, response: s.registerResponse }),
  login: def({ ...routes.login, body: s.loginRequest, response: s.session }),
  logout: def({ ...routes.logout, response: z.boolean() }),
  verifyOtp: def({ ...routes.verifyOtp, body: s.verifyOtpRequest, response: s.verifyOtpResponse }),
  verifyCancelTicketOtp: def({ ...routes.verifyCancelTicketOtp, body: s.verifyCancelOtpRequest, response: z.boolean() }),
  verifyMobile: def({ ...routes.verifyMobile, body: s.verifyMobileRequest, response: s.session }),
  // The path parameter is the registration token /register answered.
  resendMobileCode: def({ ...routes.resendMobileCode, response: s.otpSentResponse }),
  setNewPassword: def({ ...routes.setNewPassword, body: s.setNewPasswordRequest, response: s.session }),
  profile: def({ ...routes.profile, response: s.passenger }),
  updateProfile: def({ ...routes.updateProfile, body: s.updateProfileRequest, response: s.passenger }),
  changePassword: def({ ...routes.changePassword, body: s.changePasswordRequest, response: z.boolean() }),
  sendOtp: def({ ...routes.sendOtp, body: s.sendOtpRequest, response: s.otpSentResponse }),
  account: def({ ...routes.account, query: s.accountQuery, response: s.accountResponse }),
  topUp: def({ ...routes.topUp, body: s.topUpRequest, response: s.paymentResponse }),
  myReservations: def({ ...routes.myReservations, response: z.array(s.reservation) }),

  // Lookups
  originCities: def({ ...routes.originCities, response: z.array(s.city) }),
  destinationCities: def({ ...routes.destinationCities, response: z.array(s.city) }),
  timePeriods: def({ ...routes.timePeriods, response: z.array(s.timePeriod) }),
  busStations: def({ ...routes.busStations, body: s.busStationsRequest, response: s.busStationsResponse }),
  routes: def({ ...routes.routes, response: z.array(s.route) }),
  announcements: def({ ...routes.announcements, response: z.array(s.announcement) }),
  offers: def({ ...routes.offers, response: z.array(s.offer) }),
  company: def({ ...routes.company, response: s.company }),

  // Reservation
  tripSearch: def({ ...routes.tripSearch, body: s.tripSearchRequest, response: s.tripSearchResponse }),
  tripDetails: def({ ...routes.tripDetails, body: s.tripDetailsRequest, response: s.tripDetails }),
  seatLock: def({ ...routes.seatLock, body: s.seatLockRequest, response: s.seatLockResponse }),
  extendSeatLock: def({ ...routes.extendSeatLock, body: s.extendSeatLockRequest, response: s.extendSeatLockResponse }),
  booking: def({ ...routes.booking, body: s.bookingRequest, response: s.reservation }),
  extendBooking: def({ ...routes.extendBooking, body: s.extendBookingRequest, response: s.reservation }),
  cancelBooking: def({ ...routes.cancelBooking, body: s.reservationIdRequest, response: s.reservation }),
  payment: def({ ...routes.payment, body: s.reservationIdRequest, response: s.paymentResponse }),
  payFromBalance: def({ ...routes.payFromBalance, body: s.reservationIdRequest, response: s.reservation }),
  paymentSuccess: def({ ...routes.paymentSuccess, body: s.paymentResultRequest, response: s.paymentResult }),
  paymentFailure: def({ ...routes.paymentFailure, body: s.paymentResultRequest, response: s.paymentResult }),
  reservationById: def({ ...routes.reservationById, response: s.reservation }),
  reservationByPnr: def({ ...routes.reservationByPnr, response: s.reservation }),
  cancelInitialize: def({ ...routes.cancelInitialize, response: s.cancelInitializeResponse }),
  cancel: def({ ...routes.cancel, response: s.reservation }),
  contactUs: def({ ...routes.contactUs, body: s.contactRequest, response: s.contactResponse }),
  applyCoupon: def({ ...routes.applyCoupon, response: s.reservation }),
  removeCoupon: def({ ...routes.removeCoupon, response: s.reservation }),
  resendReservationEmail: def({ ...routes.resendReservationEmail, response: z.boolean() }),
} as const satisfies Record<keyof typeof routes, RouteDef>

export type Api = typeof api
export type RouteName = keyof Api
/** The `data` type a route answers with. */
export type ResponseOf<N extends RouteName> = z.infer<Api[N]['response']>
/** The request body type of a route (never for routes without a body). */
export type BodyOf<N extends RouteName> = Api[N] extends { body: infer B extends z.ZodMiniType } ? z.infer<B> : never

export { pathOf }
