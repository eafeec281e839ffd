/**
 * The table of every /api route: each route's method, path and auth (./routes.ts, without zod, so
 * the shell's early requests can use them) with the zod schemas of its body, query and answer.
 */
import * as z from 'zod/mini'
import * as r from './routes.ts'
import * as s from './schemas.ts'

interface RouteDef extends r.RouteWire {
  body?: z.ZodMiniType
  query?: z.ZodMiniType
  response: z.ZodMiniType
}

const def = <const T extends RouteDef>(route: T) => route

export const api = {
  // Authentication and profile
  passengerByMobile: def({ ...r.passengerByMobile, response: s.passengerByMobileResponse }),
  register: def({ ...r.register, body: s.registerRequest, response: s.registerResponse }),
  login: def({ ...r.login, body: s.loginRequest, response: s.session }),
  logout: def({ ...r.logout, response: z.boolean() }),
  verifyOtp: def({ ...r.verifyOtp, body: s.verifyOtpRequest, response: s.verifyOtpResponse }),
  verifyCancelTicketOtp: def({ ...r.verifyCancelTicketOtp, body: s.verifyCancelOtpRequest, response: z.boolean() }),
  verifyMobile: def({ ...r.verifyMobile, body: s.verifyMobileRequest, response: s.session }),
  resendMobileCode: def({ ...r.resendMobileCode, response: s.otpSentResponse }),
  setNewPassword: def({ ...r.setNewPassword, body: s.setNewPasswordRequest, response: s.session }),
  profile: def({ ...r.profile, response: s.passenger }),
  updateProfile: def({ ...r.updateProfile, body: s.updateProfileRequest, response: s.passenger }),
  changePassword: def({ ...r.changePassword, body: s.changePasswordRequest, response: z.boolean() }),
  sendOtp: def({ ...r.sendOtp, body: s.sendOtpRequest, response: s.otpSentResponse }),
  account: def({ ...r.account, query: s.accountQuery, response: s.accountResponse }),
  topUp: def({ ...r.topUp, body: s.topUpRequest, response: s.paymentResponse }),
  myReservations: def({ ...r.myReservations, response: z.array(s.reservation) }),

  // Lookups
  originCities: def({ ...r.originCities, response: z.array(s.city) }),
  destinationCities: def({ ...r.destinationCities, response: z.array(s.city) }),
  timePeriods: def({ ...r.timePeriods, response: z.array(s.timePeriod) }),
  busStations: def({ ...r.busStations, body: s.busStationsRequest, response: s.busStationsResponse }),
  routes: def({ ...r.routes, response: z.array(s.route) }),
  announcements: def({ ...r.announcements, response: z.array(s.announcement) }),
  offers: def({ ...r.offers, response: z.array(s.offer) }),
  company: def({ ...r.company, response: s.company }),

  // Reservation
  tripSearch: def({ ...r.tripSearch, body: s.tripSearchRequest, response: s.tripSearchResponse }),
  tripDetails: def({ ...r.tripDetails, body: s.tripDetailsRequest, response: s.tripDetails }),
  seatLock: def({ ...r.seatLock, body: s.seatLockRequest, response: s.seatLockResponse }),
  extendSeatLock: def({ ...r.extendSeatLock, body: s.extendSeatLockRequest, response: s.extendSeatLockResponse }),
  booking: def({ ...r.booking, body: s.bookingRequest, response: s.reservation }),
  extendBooking: def({ ...r.extendBooking, body: s.extendBookingRequest, response: s.reservation }),
  cancelBooking: def({ ...r.cancelBooking, body: s.reservationIdRequest, response: s.reservation }),
  payment: def({ ...r.payment, body: s.paymentRequest, response: s.paymentResponse }),
  payFromBalance: def({ ...r.payFromBalance, body: s.payFromBalanceRequest, response: s.reservation }),
  paymentSuccess: def({ ...r.paymentSuccess, body: s.paymentResultRequest, response: s.paymentResult }),
  paymentFailure: def({ ...r.paymentFailure, body: s.paymentResultRequest, response: s.paymentResult }),
  reservationById: def({ ...r.reservationById, response: s.reservation }),
  reservationByPnr: def({ ...r.reservationByPnr, response: s.reservation }),
  cancelInitialize: def({ ...r.cancelInitialize, query: s.cancelSeatsQuery, response: s.cancelInitializeResponse }),
  cancel: def({ ...r.cancel, query: s.cancelSeatsQuery, response: s.reservation }),
  changeQuote: def({ ...r.changeQuote, body: s.changeQuoteRequest, response: s.changeQuoteResponse }),
  changeTicket: def({ ...r.changeTicket, body: s.changeTicketRequest, response: s.changeTicketResponse }),
  contactUs: def({ ...r.contactUs, body: s.contactRequest, response: s.contactResponse }),
  applyCoupon: def({ ...r.applyCoupon, response: s.reservation }),
  removeCoupon: def({ ...r.removeCoupon, response: s.reservation }),
  resendReservationEmail: def({ ...r.resendReservationEmail, response: z.boolean() }),

  // Waitlist of a sold-out trip
  waitlist: def({ ...r.waitlist, response: s.waitlistEntry }),
  joinWaitlist: def({ ...r.joinWaitlist, body: s.waitlistJoinRequest, response: s.waitlistEntry }),
  leaveWaitlist: def({ ...r.leaveWaitlist, body: s.waitlistTripRequest, response: z.boolean() }),
  ticketByLink: def({ ...r.ticketByLink, response: s.reservation }),
  ticketCheck: def({ ...r.ticketCheck, query: s.ticketCheckQuery, response: s.ticketCheck }),
  // Waiting room
  queue: def({ ...r.queue, body: s.queueRequest, response: s.queueStatus }),
} as const

export type Api = typeof api
export type RouteName = keyof Api
/** The `data` type a route answers with. */
export type ResponseOf<N extends RouteName> = z.infer<Api[N]['response']>
/** The request body type of a route (never for routes without a body). */
export type BodyOf<N extends RouteName> = Api[N] extends { body: infer B extends z.ZodMiniType } ? z.infer<B> : never
