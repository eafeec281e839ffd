/**
 * The two scalars the seat stream's events are made of, in a module of their own: the stream's code
 * (contract/streams.ts) builds these two schemas, not the hundred of schemas.ts, which re-exports them.
 */
import * as z from 'zod/mini'
import { MAX_ID } from './values.ts'

/** An instant in a response: ISO-8601 with an offset (`2026-11-22T08:30:00+06:00`). */
export const instant = z.string()
/** An id: a PostgreSQL int4 above 0. */
export const id = z.number().check(z.int(), z.positive(), z.lte(MAX_ID))
