/**
 * The fuzz test's generators (fuzz/arbitrary.ts): every request schema of the
 * contract yields values the schema accepts, contexts are laid over by field name,
 * and a broken value differs from the valid one at the place it names.
 */
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as z from 'zod/mini'
import { api } from '../../contract/api.ts'
import { cancelSeatsQuery, isStorableText, waitlistJoinRequest } from '../../contract/schemas.ts'
import { Later, MISSING, mutationArbitrary, placesOf, replaceAt, resolveLater, validArbitrary, type Schema } from './fuzz/arbitrary.ts'

const schemas = Object.entries(api).flatMap(([name, r]) => {
  const def = r as { body?: Schema; query?: Schema }
  return [def.body && ([`${name} body`, def.body] as const), def.query && ([`${name} query`, def.query] as const)].filter((x) => !!x)
})

test('every request schema of the contract: generated values pass it, strings are storable', () => {
  assert.ok(schemas.length >= 20, `found ${schemas.length} request schemas`)
  for (const [name, schema] of schemas) {
    fc.assert(
      fc.property(validArbitrary(schema, { acceptString: isStorableText }), (v) => {
        const r = schema.safeParse(v)
        assert.ok(r.success, `${name}: ${JSON.stringify(v)}`)
        assert.ok(isStorableText(JSON.stringify(v)), `${name}: ${JSON.stringify(v)}`)
      }),
      { seed: 1, numRuns: 60 },
    )
  }
})

test('numbers keep to int and bounds; strings to patterns and lengths', () => {
  const s = z.strictObject({
    n: z.number().check(z.int(), z.gte(10), z.lte(20)),
    big: z.number().check(z.int(), z.positive()),
    code: z.string().check(z.regex(/^[A-Z]{3}$/)),
    text: z.string().check(z.minLength(2), z.maxLength(5)),
    password: z.string().check(z.minLength(6), z.regex(/[A-Z]/), z.regex(/\d/)),
    when: z.optional(z.nullable(z.enum(['A', 'B']))),
    list: z.array(z.literal('x')).check(z.minLength(1), z.maxLength(2)),
  })
  const seen = { absent: 0, nulls: 0 }
  for (const v of fc.sample(validArbitrary(s), { seed: 7, numRuns: 300 }) as z.infer<typeof s>[]) {
    assert.ok(s.safeParse(v).success, JSON.stringify(v))
    if (!('when' in v)) seen.absent++
    if (v.when === null) seen.nulls++
  }
  assert.ok(seen.absent > 0 && seen.nulls > 0, 'optional keys are sometimes absent, nullable ones sometimes null')
})

test('contexts: one context per object, its values for the fields the object has', () => {
  const s = z.strictObject({ tripId: z.number(), tripDate: z.string(), other: z.string() })
  const contexts = [
    { tripId: 7, tripDate: '2026-11-25', unrelated: 1 },
    { tripId: 9, tripDate: '2026-11-26' },
  ]
  const values = fc.sample(validArbitrary(s, { contexts }), { seed: 3, numRuns: 200 }) as Record<string, unknown>[]
  const fromContext = values.filter((v) => contexts.some((c) => c.tripId === v.tripId && c.tripDate === v.tripDate))
  assert.ok(fromContext.length > 100, `most objects take a context (${fromContext.length}/200)`)
  assert.ok(
    values.every((v) => !('unrelated' in v)),
    'fields the object does not have are not added',
  )
})

test('contexts: a value the field refuses is not laid over it (one field name, two meanings: a ticket link and a queue token)', () => {
  const s = z.strictObject({ token: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/)), tripDate: z.string() })
  const link = new Later('a ticket link', async () => 'x'.repeat(16), 'AbCdEfGh-_345678')
  const queueToken = new Later('a queue token', async () => 'q'.repeat(43), 'Q'.repeat(43))
  const unknownForm = new Later('a token of no stated form', async () => 'u'.repeat(43))
  const contexts = [{ token: 'too-short', tripDate: '2026-11-25' }, { token: link }, { token: queueToken }, { token: unknownForm }]
  const values = fc.sample(validArbitrary(s, { contexts }), { seed: 5, numRuns: 400 }) as Record<string, unknown>[]
  assert.ok(
    values.every((v) => v.token !== 'too-short' && v.token !== link),
    'neither the refused value nor the Later of another form',
  )
  assert.ok(
    values.some((v) => v.tripDate === '2026-11-25'),
    'the same context’s fitting values still apply',
  )
  assert.ok(
    values.some((v) => v.token === queueToken) && values.some((v) => v.token === unknownForm),
    'a Later of the field’s form, or of no stated form, is laid over',
  )
})

test('contexts: a value picked from a Later keeps the form it states (a ticket’s seats are a cancel’s, never a waitlist’s count)', async () => {
  const ticket = new Later('a ticket', async () => ({ seats: 'B3,B4' }))
  const seats = ticket.pick('its seats', (t: { seats: string }) => t.seats, 'A1,A2')
  assert.is(seats.like, 'A1,A2')
  assert.is(await resolveLater(seats), 'B3,B4')
  const contexts = [{ seats }]
  const joins = fc.sample(validArbitrary(waitlistJoinRequest, { contexts }), { seed: 7, numRuns: 200 }) as Record<string, unknown>[]
  assert.ok(
    joins.every((v) => typeof v.seats === 'number'),
    'a waitlist join keeps a seat count',
  )
  const cancels = fc.sample(validArbitrary(cancelSeatsQuery, { contexts }), { seed: 7, numRuns: 200 }) as Record<string, unknown>[]
  assert.ok(
    cancels.some((v) => v.seats === seats),
    'a cancel takes the ticket’s seats',
  )
})

test('a broken value differs from the valid one at the named place only', () => {
  const s = z.strictObject({ a: z.string(), b: z.array(z.number()), c: z.strictObject({ d: z.boolean() }) })
  const valid = { a: 'x', b: [1, 2], c: { d: true } }
  assert.equal(
    placesOf(valid, s).map((p) => p.join('.')),
    ['', 'a', 'b', 'b.0', 'b.1', 'c', 'c.d'],
  )
  assert.equal(replaceAt(valid, ['c', 'd'], MISSING), { a: 'x', b: [1, 2], c: {} })
  assert.equal(replaceAt(valid, ['b', 1], 'two'), { a: 'x', b: [1, 'two'], c: { d: true } })
  assert.equal(valid, { a: 'x', b: [1, 2], c: { d: true } }, 'the valid value is not changed')
  for (const m of fc.sample(mutationArbitrary(fc.constant(valid), s), { seed: 5, numRuns: 200 })) {
    if (m.at === '(whole)') continue
    const top = m.at.split('.')[0]!
    const rest = Object.keys(valid).filter((k) => k !== top)
    for (const k of rest)
      assert.equal((m.value as Record<string, unknown>)[k], (valid as Record<string, unknown>)[k], `${m.how} at ${m.at} left ${k} alone`)
  }
})

test.run()
