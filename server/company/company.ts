/** The operator's own details shown in the header and returned with each session. */
import type { Company } from '../../contract/schemas.ts'
import type { Queryable } from '../db/db.ts'

/** The single company row. */
export async function getCompany(q: Queryable): Promise<Company> {
  const rows = await q.query<Company>('SELECT name, phone, email FROM company WHERE id = 1')
  return rows[0] ?? { name: '', phone: '', email: '' }
}
