/**
 * Seat choice, the public face of the seat page's store: the reservation data of docs/spec.md
 * section 3 (seats, expirationTime, departureScheduleId, arrivalScheduleId), the trip details and the
 * selection rules of docs/spec.md sections 4 and 5. It is four stores:
 * - seat-map.ts: the state (signals; one state signal per seat, so toggling a seat re-renders only that seat);
 * - seat-trip.ts: loading the trip, the counters, other passengers' changes from the live seat map;
 * - seat-locks.ts: choosing seats and the per-seat lock queue;
 * - seat-hold.ts: the hold (countdown, Keep my seats, reset, expiry, leaving, a booking's hold).
 * It never imports or calls the booking store: the seat page links the two (seat-booking-link.ts).
 */

export {
  bookingHoldRanOut,
  canKeepSeats,
  endBookingHold,
  expireHold,
  extendHold,
  holdEndingSoon,
  holdForBooking,
  holdMsLeft,
  KEEP_MINUTES,
  keepSeatsOnLeave,
  leavePage,
  resetSeats,
  startHoldClock,
  tick,
} from './seat-hold.ts'
export { locksSettled, releaseSeats, setUnavailableExplainer, type ToggleResult, toggleSeat } from './seat-locks.ts'
export {
  arrivalScheduleId,
  availableSeats,
  boardingStations,
  countedSeats,
  departureScheduleId,
  droppingStations,
  expirationTime,
  fareByType,
  heldForBooking,
  lastEvent,
  type LiveStatus,
  liveStatus,
  type LoadStatus,
  loadStatus,
  type SeatChange,
  type SeatEvent,
  seatLimit,
  type SeatState,
  seatState,
  seats,
  stateOf,
  totalFare,
  tripCanceled,
  tripDetails,
  type TripRef,
  tripRef,
} from './seat-map.ts'
export { announceOthers, applyLiveSeats, chooseBoarding, chooseDropping, loadTrip, reloadSeats, setLiveStatus } from './seat-trip.ts'
