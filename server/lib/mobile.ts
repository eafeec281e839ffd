import { mobilePattern } from '../../contract/schemas.ts'

/** The 11-digit form `01XXXXXXXXX` of a valid Bangladeshi mobile no., or null when it is not one. */
export function normaliseMobile(m: string): string | null {
  const t = m.trim()
  if (!mobilePattern.test(t)) return null
  return t.length === 12 ? t.slice(1) : t
}
