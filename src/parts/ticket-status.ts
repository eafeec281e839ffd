import { reservationStatus } from '../../contract/values.ts'

/** Message id of each reservation status (docs/spec.md section 4), shared with My tickets. */
export const statusMessageIds: Record<number, string> = {
  [reservationStatus.sold]: 'profile.statusSold',
  [reservationStatus.booked]: 'profile.statusBooked',
  [reservationStatus.adminBooked]: 'profile.statusAdminBooked',
  [reservationStatus.canceled]: 'profile.statusCanceled',
  [reservationStatus.tripMigrated]: 'profile.statusTripMigrated',
  [reservationStatus.openTicket]: 'profile.statusOpenTicket',
  [reservationStatus.linked]: 'profile.statusLinked',
  [reservationStatus.tripMigratedCanceled]: 'profile.statusTripMigratedCanceled',
}

/** Tone of the status badge. */
export function statusTone(status: number): 'success' | 'info' | 'error' {
  if (status === reservationStatus.sold) return 'success'
  if (status === reservationStatus.canceled || status === reservationStatus.tripMigratedCanceled) return 'error'
  return 'info'
}
