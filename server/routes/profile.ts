/** The signed-in passenger's own profile, password and balance account. */
import type { FastifyInstance } from 'fastify'
import { AppError, type Auth, type Deps } from '../core.ts'
import { handle, pathId } from '../http/handle.ts'
import { statement } from '../account/ledger.ts'
import { changePassword } from '../account/password-changes.ts'
import { passengerById, toPassenger, updateProfile, type PassengerRow } from '../account/passengers.ts'
import { hashPassword, verifyPassword } from '../account/passwords.ts'
import { dhakaDate } from '../lib/time.ts'

/** The `:id` path parameter as a passenger id that must be the caller's own. */
function ownId(raw: string | undefined, auth: Auth | null): number {
  const id = pathId(raw, 'id')
  if (!auth || id !== auth.passengerId) throw new AppError('PERMISSION_DENIED')
  return id
}

async function me(deps: Deps, id: number): Promise<PassengerRow> {
  const p = await passengerById(deps.db, id)
  if (!p) throw new AppError('PASSENGER_NOT_FOUND')
  return p
}

/** Registers the profile and account routes. */
export function register(app: FastifyInstance, deps: Deps): void {
  handle(app, deps, 'profile', async ({ params, auth }) => toPassenger(await me(deps, ownId(params.id, auth))))

  handle(app, deps, 'updateProfile', async ({ body, auth }) => {
    const row = await updateProfile(deps.db, auth!.passengerId, body)
    if (!row) throw new AppError('PASSENGER_NOT_FOUND')
    return toPassenger(row)
  })

  handle(app, deps, 'changePassword', async ({ body, auth }) => {
    const p = await me(deps, auth!.passengerId)
    // 400, not the catalogue's 401: a wrong current password must not sign the passenger out.
    if (!(await verifyPassword(body.currentPassword, p.password_hash))) throw new AppError('BAD_CREDENTIALS', { status: 400 })
    await changePassword(deps.db, p.id, await hashPassword(body.newPassword), auth!.tokenId, deps.now())
    return true
  })

  handle(app, deps, 'account', async ({ params, query, auth }) => {
    const id = ownId(params.id, auth)
    const today = dhakaDate(deps.now())
    const from = query.from ?? today.slice(0, 8) + '01'
    const to = query.to ?? today
    if (from > to) throw new AppError('VALIDATION_FAILED', { fields: [{ path: 'from', message: 'From must not be after to' }] })
    const p = await me(deps, id)
    return { balance: p.balance, transactions: await statement(deps.db, id, from, to) }
  })
}
