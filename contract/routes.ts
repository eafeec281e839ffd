/**
 * Every /api route as the wire sees it (docs/spec.md section 7 plus the paths the SPEC leaves
 * to configuration): method, path and auth, without zod, so the shell's early requests
 * (src/early/requests.ts, bundled alone) and the fetch wrapper (src/api/) read the same table;
 * contract/api.ts adds each route's schemas. Paths are relative to the API base (default
 * `/api`); `:name` marks a path parameter. `auth`: `required` answers 401 without a valid
 * bearer token; `optional` reads it when present (seat locks fall back to the `X-Device-Id`
 * header for visitors). One constant per route, so a bundle keeps only the routes it uses.
 */

/** A route's method, path and auth. */
export interface RouteWire {
  method: 'GET' | 'POST' | 'PUT'
  path: string
  auth: 'none' | 'optional' | 'required'
}
// Authentication and profile
export const passengerByMobile = { method: 'GET', path: '/getPassengerByMobile/:mobile', auth: 'none' } as const
export const register = { method: 'POST', path: '/register', auth: 'none' } as const
export const login = { method: 'POST', path: '/checkPassenger', auth: 'none' } as const
export const logout = { method: 'POST', path: '/logout', auth: 'required' } as const
export const verifyOtp = { method: 'POST', path: '/verifyOTP', auth: 'none' } as const
export const verifyCancelTicketOtp = { method: 'POST', path: '/verifyCancelTicketOTP', auth: 'optional' } as const
export const verifyMobile = { method: 'POST', path: '/verifyMobileVerificationCode', auth: 'none' } as const

// The path parameter is the registration token /register answered.
export const resendMobileCode = { method: 'GET', path: '/resendMobileVerificationCode/:registrationToken', auth: 'none' } as const
export const setNewPassword = { method: 'POST', path: '/setNewPassword', auth: 'none' } as const
export const profile = { method: 'GET', path: '/profile/:id', auth: 'required' } as const
export const updateProfile = { method: 'PUT', path: '/profile', auth: 'required' } as const
export const changePassword = { method: 'PUT', path: '/changePassword', auth: 'required' } as const
export const sendOtp = { method: 'POST', path: '/sendOtp', auth: 'none' } as const
export const account = { method: 'GET', path: '/account/:id', auth: 'required' } as const
export const topUp = { method: 'POST', path: '/account/topUp', auth: 'required' } as const
export const myReservations = { method: 'GET', path: '/reservations', auth: 'required' } as const

// Lookups
export const originCities = { method: 'GET', path: '/originCities', auth: 'none' } as const
export const destinationCities = { method: 'GET', path: '/destinationCities', auth: 'none' } as const
export const timePeriods = { method: 'GET', path: '/timePeriods', auth: 'none' } as const
export const busStations = { method: 'POST', path: '/busStationsByOriginDestinationAndTripDate', auth: 'none' } as const
export const routes = { method: 'GET', path: '/routes', auth: 'none' } as const
export const announcements = { method: 'GET', path: '/announcements', auth: 'none' } as const
export const offers = { method: 'GET', path: '/offers', auth: 'none' } as const
export const company = { method: 'GET', path: '/company', auth: 'none' } as const

// Reservation
export const tripSearch = { method: 'POST', path: '/reservation/tripSearch', auth: 'none' } as const
export const tripDetails = { method: 'POST', path: '/reservation/tripDetails', auth: 'optional' } as const
export const seatLock = { method: 'POST', path: '/reservation/seatLock', auth: 'optional' } as const
export const extendSeatLock = { method: 'POST', path: '/reservation/extendSeatLock', auth: 'optional' } as const
export const booking = { method: 'POST', path: '/reservation/booking', auth: 'required' } as const
export const extendBooking = { method: 'POST', path: '/reservation/extendBookingTime', auth: 'required' } as const
export const cancelBooking = { method: 'POST', path: '/reservation/cancelBooking', auth: 'required' } as const
export const payment = { method: 'POST', path: '/reservation/payment', auth: 'required' } as const
export const payFromBalance = { method: 'POST', path: '/reservation/payFromBalance', auth: 'required' } as const
export const paymentSuccess = { method: 'POST', path: '/reservation/success', auth: 'optional' } as const
export const paymentFailure = { method: 'POST', path: '/reservation/failure', auth: 'optional' } as const
export const reservationById = { method: 'GET', path: '/reservation/details/:id', auth: 'required' } as const
export const reservationByPnr = { method: 'GET', path: '/reservation/details/:pnr/:pin', auth: 'optional' } as const
export const cancelInitialize = { method: 'GET', path: '/reservation/cancelInitialize/:pnr/:pin', auth: 'optional' } as const
export const cancel = { method: 'GET', path: '/reservation/cancel/:pnr/:pin/:otp', auth: 'optional' } as const
// Moving a sold ticket to another trip of its route (issue 31): the quote, then the change.
export const changeQuote = { method: 'POST', path: '/reservation/changeQuote', auth: 'required' } as const
export const changeTicket = { method: 'POST', path: '/reservation/change', auth: 'required' } as const
export const contactUs = { method: 'POST', path: '/reservation/contactUs', auth: 'none' } as const
export const applyCoupon = { method: 'GET', path: '/reservation/booking/applyDiscountCoupon/:reservationId/:couponCode', auth: 'required' } as const
export const removeCoupon = { method: 'GET', path: '/reservation/booking/removeDiscountCoupon/:reservationId/:couponCode', auth: 'required' } as const
export const resendReservationEmail = { method: 'GET', path: '/reservation/resendReservationEmail/:pnr/:pin', auth: 'optional' } as const
// The token of the ticket SMS's link: shows the ticket (without its PIN), never cancels it.
export const ticketByLink = { method: 'GET', path: '/reservation/link/:token', auth: 'none' } as const
// The checker page's public keys, trips and revocation list of a day (?date=).
export const ticketCheck = { method: 'GET', path: '/ticketCheck', auth: 'none' } as const

// Waitlist of a sold-out trip
export const waitlist = { method: 'GET', path: '/waitlist/:tripId', auth: 'required' } as const
export const joinWaitlist = { method: 'POST', path: '/waitlist', auth: 'required' } as const
export const leaveWaitlist = { method: 'POST', path: '/waitlist/leave', auth: 'required' } as const

// Waiting room of a rush date (server/queue/): joins (`join: true`) or reads one's place
export const queue = { method: 'POST', path: '/queue', auth: 'optional' } as const

/** Fills `:name` parameters of a route path, URI-encoding each value. */
export function pathOf(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:(\w+)/g, (_, k: string) => {
    const v = params[k]
    if (v === undefined) throw new Error(`missing path parameter ${k} for ${path}`)
    return encodeURIComponent(String(v))
  })
}
