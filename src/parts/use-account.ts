import type { Model } from '@preact/signals-core'
import { createContext, useContext } from 'react'
import type { Account } from '../models/account.ts'
import type { Login } from '../models/login.ts'

/** The login flow of this visit of /login. */
export const LoginContext = createContext<Model<Login> | null>(null)

/** The account of this visit of /profile. */
export const AccountContext = createContext<Model<Account> | null>(null)

/** The login flow of this page visit (inside /login). */
export function useLogin(): Model<Login> {
  const login = useContext(LoginContext)
  if (!login) throw new Error('useLogin outside the login page')
  return login
}

/** The account of this page visit (inside /profile). */
export function useAccount(): Model<Account> {
  const account = useContext(AccountContext)
  if (!account) throw new Error('useAccount outside the profile page')
  return account
}
