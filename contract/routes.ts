/**
 * Every /api route's method, path and authentication, without its schemas: the fetch wrapper
 * (src/api/client.ts) and the shell's early requests need only these, so the first render
 * never loads zod. contract/api.ts adds each route's schemas to the same entries.
 * Paths are relative to the API base (default `/api`); `:name` marks a path parameter.
 * `auth`: `required` answers 401 without a valid bearer token; `optional` reads it when
 * present (seat locks fall back to the `X-Device-Id` header for visitors).
 */

export type Method = 'GET' | 'POST' | 'PUT'
export type Auth = 'none' | 'optional' | 'required'

/** One route of the table. */
export interface RoutePath {
  method: Method
  path: string
  auth: Auth
}

export const routes = {
  // Authentication and profile
  passengerByMobile: { method: 'GET', path: '/getPassengerByMobile/:mobile', auth: 'none' },
  register: { method: 'POST', path: '/register', auth: 'none' },
  login: { method: 'POST', path: '/checkPassenger', auth: 'none' },
  logout: { method: 'POST', path: '/logout', auth: 'required' },
  verifyOtp: { method: 'POST', path: '/verifyOTP', auth: 'none' },
  verifyCancelTicketOtp: { method: 'POST', path: '/verifyCancelTicketOTP', auth: 'optional' },
  verifyMobile: { method: 'POST', path: '/verifyMobileVerificationCode', auth: 'none' },
  // The path parameter is the registration token /register answered.
  resendMobileCode: { method: 'GET', path: '/resendMobileVerificationCode/:registrationToken', auth: 'none' },
  setNewPassword: { method: 'POST', path: '/setNewPassword', auth: 'none' },
  profile: { method: 'GET', path: '/profile/:id', auth: 'required' },
  updateProfile: { method: 'PUT', path: '/profile', auth: 'required' },
  changePassword: { method: 'PUT', path: '/changePassword', auth: 'required' },
  sendOtp: { method: 'POST', path: '/sendOtp', auth: 'none' },
  account: { method: 'GET', path: '/account/:id', auth: 'required' },
  topUp: { method: 'POST', path: '/account/topUp', auth: 'required' },
  myReservations: { method: 'GET', path: '/reservations', auth: 'required' },

  // Lookups
  originCities: { method: 'GET', path: '/originCities', auth: 'none' },
  destinationCities: { method: 'GET', path: '/destinationCities', auth: 'none' },
  timePeriods: { method: 'GET', path: '/timePeriods', auth: 'none' },
  busStations: { method: 'POST', path: '/busStationsByOriginDestinationAndTripDate', auth: 'none' },
  routes: { method: 'GET', path: '/routes', auth: 'none' },
  announcements: { method: 'GET', path: '/announcements', auth: 'none' },
  offers: { method: 'GET', path: '/offers', auth: 'none' },
  company: { method: 'GET', path: '/company', auth: 'none' },

  // Reservation
  tripSearch: { method: 'POST', path: '/reservation/tripSearch', auth: 'none' },
  tripDetails: { method: 'POST', path: '/reservation/tripDetails', auth: 'optional' },
  seatLock: { method: 'POST', path: '/reservation/seatLock', auth: 'optional' },
  extendSeatLock: { method: 'POST', path: '/reservation/extendSeatLock', auth: 'optional' },
  booking: { method: 'POST', path: '/reservation/booking', auth: 'required' },
  extendBooking: { method: 'POST', path: '/reservation/extendBookingTime', auth: 'required' },
  cancelBooking: { method: 'POST', path: '/reservation/cancelBooking', auth: 'required' },
  payment: { method: 'POST', path: '/reservation/payment', auth: 'required' },
  payFromBalance: { method: 'POST', path: '/reservation/payFromBalance', auth: 'required' },
  paymentSuccess: { method: 'POST', path: '/reservation/success', auth: 'optional' },
  paymentFailure: { method: 'POST', path: '/reservation/failure', auth: 'optional' },
  reservationById: { method: 'GET', path: '/reservation/details/:id', auth: 'required' },
  reservationByPnr: { method: 'GET', path: '/reservation/details/:pnr/:pin', auth: 'optional' },
  cancelInitialize: { method: 'GET', path: '/reservation/cancelInitialize/:pnr/:pin', auth: 'optional' },
  cancel: { method: 'GET', path: '/reservation/cancel/:pnr/:pin/:otp', auth: 'optional' },
  contactUs: { method: 'POST', path: '/reservation/contactUs', auth: 'none' },
  applyCoupon: { method: 'GET', path: '/reservation/booking/applyDiscountCoupon/:reservationId/:couponCode', auth: 'required' },
  removeCoupon: { method: 'GET', path: '/reservation/booking/removeDiscountCoupon/:reservationId/:couponCode', auth: 'required' },
  resendReservationEmail: { method: 'GET', path: '/reservation/resendReservationEmail/:pnr/:pin', auth: 'optional' },
} as const satisfies Record<string, RoutePath>

export type RouteName = keyof typeof routes

/** Fills `:name` parameters of a route path, URI-encoding each value. */
export function pathOf(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:(\w+)/g, (_, k: string) => {
    const v = params[k]
    if (v === undefined) throw new Error(`missing path parameter ${k} for ${path}`)
    return encodeURIComponent(String(v))
  })
}
