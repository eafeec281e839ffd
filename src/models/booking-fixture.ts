/**
 * The booking model tests' stand-in server and setup (src/models/: booking, booking-payment and booking-link .test.ts):
 * one booking, a balance and the gateway's answers, like the real server, on a fake clock, with a passenger signed
 * in. Each test makes its own (startBookingTest) with a fresh booking model.
 */
import type { RouteName } from '../../contract/api.ts'
import { errorCatalogue, type ErrorCode } from '../../contract/errors.ts'
import type { PaymentResult, Reservation } from '../../contract/schemas.ts'
import { ApiError } from '../api/api-error.ts'
import { fakeApi, type FakeCall, type FakeRoutes } from '../api/index.ts'
import { fakeClock, type FakeClock } from '../lib/clock.ts'
import { useMemoryStorages } from '../lib/storage.ts'
import { NOW, iso, sold } from '../stores/ticket-fixture.ts'
import { type Booking, type BookingInput, BookingModel } from './booking.ts'
import { type Session, SessionModel } from './session.ts'

// ---------- a fake server with one booking, like the real one ----------

export { NOW, iso }

const station = (id: number, name: string) => ({ id, name, cityCode: 'DHK', address: 'Road 1', phone: '01700000000', time: null })

/** The server's booking: two seats on trip `tripId`, unpaid, 15 minutes to pay (30 at most). */
export function booking(extra: Partial<Reservation> = {}, tripId = 7): Reservation {
  return {
    ...sold,
    status: 2,
    pnr: null,
    pin: null,
    tripId,
    tripDate: '2026-11-23',
    departureTime: '2026-11-23T22:00:00+06:00',
    arrivalTime: '2026-11-24T04:00:00+06:00',
    boardingStation: station(1, 'Kalabagan'),
    droppingStation: station(9, 'GEC'),
    seats: [
      { name: 'A1', seatType: 'Standard', fare: 800 },
      { name: 'A2', seatType: 'Standard', fare: 800 },
    ],
    fare: { subtotal: 1600, discount: 0, total: 1600, couponCode: null },
    expirationTime: iso(NOW + 15 * 60_000),
    maxExpirationTime: iso(NOW + 30 * 60_000),
    paymentMethod: null,
    paidAt: null,
    ...extra,
  }
}

export const fail = (code: ErrorCode) => {
  throw new ApiError(code, errorCatalogue[code].reason, errorCatalogue[code].status)
}

export const passenger = {
  id: 3,
  mobile: '01712345678',
  fullName: 'Rahim',
  email: 'r@example.com',
  city: 'Dhaka',
  balance: 5000,
  createdAt: iso(NOW),
}

export const input: BookingInput = {
  tripId: 7,
  seatNames: ['A1', 'A2'],
  boardingStationId: 1,
  droppingStationId: 9,
  passengerName: ' Rahim ',
  passengerMobile: '01712345678',
  passengerEmail: '',
}

/** The stand-in server of one test: its routes (a test may replace one), the requests it got, and its state. */
export interface BookingServer {
  /** The server's routes (a test may replace one). */
  handlers: FakeRoutes
  /** The requests sent in this test. */
  readonly calls: FakeCall[]
  clock: FakeClock
  /** The booking as the server has it. */
  readonly reservation: Reservation
  /** The requests sent to one route in this test. */
  named(n: RouteName): FakeCall[]
  /** The gateway's result of `paymentId`, the booking sold when approved. */
  result(paymentId: string, approved: boolean): PaymentResult
  /** The passenger's balance on the server is `amount`. */
  setBalance(amount: number): void
  /** The server starts answering afresh (its routes as at the start of a test), and the request log with it. */
  serveAgain(): void
}

/** A stand-in server whose booking is of trip `tripId`, on a fake clock at NOW. */
function bookingServer(tripId: number): BookingServer {
  const clock = fakeClock(NOW)
  let balance = 5000
  let pendingPayment: string | null = null
  let server = booking({}, tripId)
  let calls: FakeCall[] = []

  const result = (paymentId: string, approved: boolean): PaymentResult => {
    if (approved && server.status === 2)
      server = { ...server, status: 1, pnr: 'ABCDEFGHJK', pin: '1234', paymentMethod: 'CARD', expirationTime: null }
    return {
      paymentId,
      full: true,
      status: approved ? 'APPROVED' : 'DECLINED',
      purpose: 'RESERVATION',
      amount: server.fare.total,
      reservation: server,
      balance,
    }
  }

  const routes = (): FakeRoutes => ({
    booking: () => (server = booking({}, tripId)),
    extendBooking: ({ body }) => {
      const at = Date.parse((body as { expirationTime: string }).expirationTime)
      if (at > Date.parse(server.maxExpirationTime!)) fail('INVALID_EXPIRATION_TIME')
      return (server = { ...server, expirationTime: iso(at) })
    },
    applyCoupon: ({ params }) => {
      if (params!.couponCode !== 'EID10') fail('INVALID_COUPON')
      pendingPayment = null
      // the server's rule (10%, capped at 100) differs from any client guess
      return (server = { ...server, fare: { subtotal: 1600, discount: 100, total: 1500, couponCode: 'EID10' } })
    },
    removeCoupon: () => (server = { ...server, fare: { subtotal: 1600, discount: 0, total: 1600, couponCode: null } }),
    payment: () => {
      if (server.status === 1) fail('PAYMENT_ALREADY_COMPLETED')
      pendingPayment ??= `pay_${calls.filter((c) => c.name === 'payment').length}`
      return { paymentId: pendingPayment, redirectUrl: `/sandbox/gateway/${pendingPayment}`, resultToken: `tok_${pendingPayment}` }
    },
    payFromBalance: () => {
      if (balance < server.fare.total) fail('INSUFFICIENT_BALANCE')
      balance -= server.fare.total
      return (server = {
        ...server,
        status: 1,
        pnr: 'ABCDEFGHJK',
        pin: '1234',
        paymentMethod: 'BALANCE',
        expirationTime: null,
        maxExpirationTime: null,
      })
    },
    paymentSuccess: ({ body }) => result((body as { paymentId: string }).paymentId, true),
    paymentFailure: ({ body }) => result((body as { paymentId: string }).paymentId, false),
    cancelBooking: () => (server = { ...server, status: 5, expirationTime: null }),
    profile: () => ({ ...passenger, balance }),
    myReservations: () => [server],
    reservationById: () => server,
  })

  const stand: BookingServer = {
    handlers: routes(),
    get calls() {
      return calls
    },
    clock,
    get reservation() {
      return server
    },
    named: (n) => calls.filter((c) => c.name === n),
    result,
    setBalance(amount) {
      balance = amount
    },
    serveAgain() {
      stand.handlers = routes()
      calls = fakeApi(stand.handlers)
    },
  }
  calls = fakeApi(stand.handlers)
  return stand
}

/** One test's booking model, its stand-in server and its session. */
export interface BookingTest {
  b: Booking & Disposable
  s: BookingServer
  session: Session
}

/**
 * Each test's start: a stand-in server on a fresh clock, the passenger signed in to a fresh session, and a fresh
 * booking model in it (the test disposes it). `tripId`: the trip the server's booking is of (the seat page's test
 * books the trip it shows).
 */
export async function startBookingTest(tripId = 7): Promise<BookingTest> {
  const s = bookingServer(tripId)
  useMemoryStorages()
  const session = new SessionModel()
  session.loadSession()
  session.signIn({ token: 't', expiresAt: iso(NOW + 86_400_000), passenger, company: { name: 'C', phone: '1', email: 'c@example.com' } })
  // the saved tickets the sign-in removes are removed before the test keeps any
  await session.savedTicketsDropped()
  return { b: new BookingModel(session), s, session }
}
