/**
 * The operator's network file (`npm run import -- <file>`, data/demo-network.json):
 * company, cities with their counters, coach layouts, routes, the timetable the
 * trips are generated from, time periods, offers and announcements. The zod schema
 * checks each field; `crossCheck` checks what fields say about each other (a route's
 * cities exist, fares cover the layout's seat types, codes are unique...).
 * `validateNetwork` answers every problem at once as `path: message`.
 */
import { z } from 'zod'
import { coachTypes, isCalendarDate, OPEN_SEAT_NAME, seatTypes } from '../../contract/schemas.ts'
import { checkRushDates, rushDateSchema } from './rush.ts'

/** Weekday names in ISO order: MON is 1, SUN is 7. */
export const weekdayNames = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const

const text = (max: number) => z.string().trim().min(1).max(max)
const cityCode = z.string().regex(/^[A-Z]{3}$/, 'must be three capital letters, e.g. DHK')
const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date yyyy-mm-dd')
  .refine(isCalendarDate, 'is not a calendar date')
const whole = (max: number) => z.number().int().min(0).max(max)
const positive = (max: number) => z.number().int().min(1).max(max)
const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM (00:00-23:59)')

/** The longest a sale may open before departure, in days. */
export const SALE_DAYS_BEFORE_MAX = 366

const saleOpens = z
  .strictObject({
    daysBefore: whole(SALE_DAYS_BEFORE_MAX).describe('Days before the travel date (Asia/Dhaka) its trips go on sale; 0: on the day itself'),
    at: clock.describe('Time of day in Asia/Dhaka they go on sale, e.g. 08:00'),
  })
  .describe('When the trips of a travel date D go on sale: at `at` on D minus `daysBefore` days, Asia/Dhaka')

const counter = z
  .strictObject({
    name: text(80).describe('Counter name, unique in its city (the key an import matches on)'),
    address: text(200).describe('Street address shown to passengers'),
    phone: text(30).describe('Counter phone number'),
    offsetMinutes: whole(24 * 60).describe(
      'Minutes after departure (boarding) or arrival (dropping) the coach is at this counter; the first counter is usually 0',
    ),
  })
  .describe('A boarding and dropping counter (bus station)')

const city = z
  .strictObject({
    code: cityCode.describe('City code, the key an import matches on'),
    name: text(80).describe('English name'),
    nameBn: text(80).describe('Bengali name'),
    counters: z.array(counter).min(1).describe('Counters in the order a coach passes them'),
  })
  .describe('A city the operator serves; cities are listed in file order')

const seat = z
  .strictObject({
    name: z
      .string()
      .regex(/^[A-Z0-9]{1,6}$/, 'must be 1-6 capital letters or digits, e.g. A1')
      .refine((n) => n !== OPEN_SEAT_NAME, `${OPEN_SEAT_NAME} is reserved`)
      .describe('Seat name printed on the ticket, unique in the layout'),
    row: whole(99).describe('Row from the front, 0-based'),
    col: whole(19).describe('Column from the left, 0-based'),
    deck: z.enum(['LOWER', 'UPPER']).describe('Deck (one of the layout decks)'),
    seatType: z.enum(seatTypes).describe('Seat type: the fare of a trip is per seat type'),
  })
  .describe('One seat of a layout')

const layout = z
  .strictObject({
    code: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]{0,31}$/, 'must be capital letters, digits and _, e.g. AC_STANDARD')
      .describe('Layout code, the key an import matches on; the timetable refers to it'),
    name: text(80).describe('Name shown with the coach, unique among layouts'),
    coachType: z.enum(coachTypes).describe('Coach type shown in search results'),
    rows: positive(100).describe('Rows on the seat map'),
    columns: positive(20).describe('Columns on the seat map, aisles included'),
    aisleColumns: z.array(whole(19)).describe('Columns that are aisles (no seat)'),
    decks: z
      .array(z.enum(['LOWER', 'UPPER']))
      .min(1)
      .max(2)
      .refine((d) => new Set(d).size === d.length, 'lists a deck twice')
      .describe('LOWER, or LOWER and UPPER for a double-decker'),
    seats: z.array(seat).min(1).describe('Every seat'),
  })
  .describe('A coach seat layout')

const route = z
  .strictObject({
    from: cityCode.describe('Origin city code'),
    to: cityCode.describe('Destination city code'),
    distanceKm: positive(5000).describe('Road distance in km'),
    durationMinutes: positive(48 * 60).describe('Travel time in minutes: a trip arrives this long after it departs'),
    saleOpens: saleOpens.optional().describe("When its trips go on sale; always on sale when left out (a timetable entry's own saleOpens wins)"),
  })
  .describe('A one-way route; list both directions when coaches run both ways')

const departure = z
  .strictObject({
    coachCode: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,31}$/, 'must be letters, digits and -, e.g. 101-DHK-CTG')
      .describe('Coach code, unique in the timetable: the key an import matches on, printed on tickets'),
    from: cityCode.describe('Origin city code (a route from-to must exist)'),
    to: cityCode.describe('Destination city code'),
    layout: z.string().min(1).describe('Layout code'),
    departs: clock.describe('Departure time in Asia/Dhaka'),
    weekdays: z
      .array(z.enum(weekdayNames))
      .min(1)
      .refine((d) => new Set(d).size === d.length, 'lists a day twice')
      .default([...weekdayNames])
      .describe('Days it runs (Asia/Dhaka date of departure); every day when left out'),
    validFrom: date.optional().describe('First date it runs; from now on when left out'),
    validUntil: date.optional().describe('Last date it runs; with no end when left out'),
    fares: z
      .partialRecord(z.enum(seatTypes), positive(100_000))
      .describe('Fare in whole Taka for each seat type of the layout, e.g. {"Standard": 800}'),
    saleOpens: saleOpens
      .nullable()
      .optional()
      .describe("When this coach's trips go on sale, instead of its route's; null: always on sale; the route's when left out"),
  })
  .describe('A coach that departs at the same time on the listed days; trips are generated from it')

const timePeriod = z
  .strictObject({
    label: text(40).describe('Label, unique (the key an import matches on)'),
    labelBn: text(40).optional().describe('Bengali label; the English one, marked as English, when left out'),
    value: z
      .string()
      .regex(/^(0\d|1[0-2]):[0-5]\d(AM|PM)-(0\d|1[0-2]):[0-5]\d(AM|PM)$/, 'must look like 04:00AM-11:59AM')
      .describe('Time range, e.g. 04:00AM-11:59AM'),
    integerValue: positive(99).describe('Number the search filter sends'),
  })
  .describe('A departure time filter on the search page; listed in file order')

const offer = z
  .strictObject({
    couponCode: z
      .string()
      .regex(/^[A-Z0-9]{3,20}$/, 'must be 3-20 capital letters or digits')
      .describe('Coupon code, the key an import matches on'),
    title: text(120).describe('English title'),
    titleBn: text(120).describe('Bengali title'),
    description: text(500).describe('English description'),
    descriptionBn: text(500).optional().describe('Bengali description; the English one, marked as English, when left out'),
    discountPercent: positive(100).describe('Discount in percent of the fare'),
    maxDiscount: whole(1_000_000).describe('Largest discount in Taka'),
    validFrom: date.optional().describe('First day it applies (Asia/Dhaka); at once when left out'),
    validUntil: date.describe('Last day it applies (Asia/Dhaka)'),
    firstBookingOnly: z.boolean().default(false).describe("Only on a passenger's first booking"),
    maxUsesPerPassenger: positive(1_000_000).optional().describe('Times one passenger may use it; no limit when left out'),
    maxUsesTotal: positive(100_000_000).optional().describe('Times it may be used in all; no limit when left out'),
    minFare: whole(1_000_000).default(0).describe('Smallest booking subtotal it applies to, in Taka'),
  })
  .describe('An offer with its coupon rules')

const announcement = z
  .strictObject({
    key: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be lower-case letters, digits and -, e.g. eid-tickets')
      .describe('Key, the one an import matches on'),
    title: text(300).describe('English text'),
    titleBn: text(300).describe('Bengali text'),
    active: z.boolean().default(true).describe('Shown on the home page'),
  })
  .describe('A notice shown on the home page')

/** The whole file. */
export const networkSchema = z
  .strictObject({
    version: z.literal(1).describe('Format version: 1'),
    company: z
      .strictObject({
        name: text(120).describe('Operator name'),
        phone: text(30).describe('Help line'),
        email: z.email().describe('Support e-mail address'),
      })
      .describe('The operator, shown in the footer and on tickets'),
    cities: z.array(city).min(1).describe('Every city served'),
    layouts: z.array(layout).min(1).describe('Every seat layout the timetable uses'),
    routes: z.array(route).min(1).describe('Every route the timetable uses'),
    timetable: z.array(departure).min(1).describe('Every coach departure; trips are generated from it'),
    timePeriods: z.array(timePeriod).describe('Search filters by departure time'),
    offers: z.array(offer).describe('Offers with coupon codes; removed ones end (used) or go (never used)'),
    announcements: z.array(announcement).describe('Home-page notices'),
    rushDates: z.array(rushDateSchema).default([]).describe('Travel dates sold through the waiting room; none when left out'),
  })
  .describe("The operator's network and timetable")

/** A validated network file. */
export type Network = z.output<typeof networkSchema>
/** One layout of a validated file. */
export type NetworkLayout = Network['layouts'][number]

/** `validateNetwork`'s answer: the network, or every problem as `path: message`. */
export type Validation = { ok: true; network: Network } | { ok: false; errors: string[] }

/** Checks a parsed JSON value against the format and the cross-references; answers every error. */
export function validateNetwork(json: unknown): Validation {
  const parsed = networkSchema.safeParse(json)
  const errors = parsed.success ? [] : parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`)
  errors.push(...crossCheck(json))
  if (errors.length > 0 || !parsed.success) return { ok: false, errors }
  return { ok: true, network: parsed.data }
}

/** Parses the file's text, then validates it. */
export function validateNetworkText(text: string): Validation {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    return { ok: false, errors: [`(file): not valid JSON: ${(err as Error).message}`] }
  }
  return validateNetwork(json)
}

/** `timetable[3].fares` from ['timetable', 3, 'fares']. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p)
  return out || '(file)'
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {})
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v.trim() : undefined)
const int = (v: unknown): number | undefined => (Number.isInteger(v) ? (v as number) : undefined)

/**
 * What the fields say about each other. Works on the raw value, so it reports
 * alongside the field errors: an entry with a broken field is still checked for
 * what it can be, and a reference to an entry that has field errors is not an
 * unknown reference.
 */
function crossCheck(json: unknown): string[] {
  const errors: string[] = []
  const add = (path: (string | number)[], message: string) => errors.push(`${formatPath(path)}: ${message}`)
  const root = obj(json)

  const firstSeen = <K>(section: string, field: string, key: (e: Record<string, unknown>) => K | undefined, what: string) => {
    const seen = new Map<K, number>()
    list(root[section]).forEach((e, i) => {
      const k = key(obj(e))
      if (k === undefined) return
      const j = seen.get(k)
      if (j !== undefined) add([section, i, field], `${what} ${String(k)} is also ${section}[${j}]`)
      else seen.set(k, i)
    })
    return seen
  }

  const cities = firstSeen('cities', 'code', (c) => str(c.code), 'city code')
  list(root.cities).forEach((c, i) => {
    const seen = new Map<string, number>()
    list(obj(c).counters).forEach((k, j) => {
      const name = str(obj(k).name)?.toLowerCase()
      if (name === undefined) return
      const first = seen.get(name)
      if (first !== undefined) add(['cities', i, 'counters', j, 'name'], `counter name is also counters[${first}] of this city`)
      else seen.set(name, j)
    })
  })

  firstSeen('layouts', 'name', (l) => str(l.name)?.toLowerCase(), 'layout name')
  const layoutIndex = firstSeen('layouts', 'code', (l) => str(l.code), 'layout code')
  const layoutSeatTypes = new Map<string, Set<string>>()
  list(root.layouts).forEach((raw, i) => {
    const l = obj(raw)
    const rows = int(l.rows)
    const columns = int(l.columns)
    const aisles = new Set(list(l.aisleColumns).map(int))
    const decks = new Set(list(l.decks).map(str))
    list(l.aisleColumns).forEach((a, j) => {
      const col = int(a)
      if (col !== undefined && columns !== undefined && col >= columns)
        add(['layouts', i, 'aisleColumns', j], `column ${col} is outside the layout's ${columns} columns`)
    })
    const names = new Map<string, number>()
    const places = new Map<string, number>()
    const types = new Set<string>()
    list(l.seats).forEach((rawSeat, j) => {
      const s = obj(rawSeat)
      const at = (f: string) => ['layouts', i, 'seats', j, f]
      const name = str(s.name)
      const row = int(s.row)
      const col = int(s.col)
      const deck = str(s.deck)
      if (typeof s.seatType === 'string' && (seatTypes as readonly string[]).includes(s.seatType)) types.add(s.seatType)
      if (name !== undefined) {
        const first = names.get(name)
        if (first !== undefined) add(at('name'), `seat name ${name} is also seats[${first}]`)
        else names.set(name, j)
      }
      if (row !== undefined && rows !== undefined && row >= rows) add(at('row'), `row ${row} is outside the layout's ${rows} rows (0-${rows - 1})`)
      if (col !== undefined && columns !== undefined && col >= columns)
        add(at('col'), `column ${col} is outside the layout's ${columns} columns (0-${columns - 1})`)
      if (col !== undefined && aisles.has(col)) add(at('col'), `column ${col} is an aisle`)
      if (deck !== undefined && decks.size > 0 && !decks.has(deck)) add(at('deck'), `deck ${deck} is not one of the layout's decks`)
      if (row !== undefined && col !== undefined && deck !== undefined) {
        const place = `${deck} ${row} ${col}`
        const first = places.get(place)
        if (first !== undefined) add(at('col'), `seats[${first}] is already at row ${row}, column ${col} of the ${deck} deck`)
        else places.set(place, j)
      }
    })
    const code = str(l.code)
    if (code !== undefined && layoutIndex.get(code) === i) layoutSeatTypes.set(code, types)
  })

  const routes = firstSeen('routes', 'to', (r) => (str(r.from) && str(r.to) ? `${str(r.from)}-${str(r.to)}` : undefined), 'route')
  list(root.routes).forEach((raw, i) => {
    const r = obj(raw)
    for (const side of ['from', 'to'] as const) {
      const code = str(r[side])
      if (code !== undefined && !cities.has(code)) add(['routes', i, side], `unknown city ${code} (not in cities)`)
    }
    if (str(r.from) !== undefined && str(r.from) === str(r.to)) add(['routes', i, 'to'], 'a route must end in another city')
  })

  firstSeen('timetable', 'coachCode', (d) => str(d.coachCode), 'coach code')
  list(root.timetable).forEach((raw, i) => {
    const d = obj(raw)
    const from = str(d.from)
    const to = str(d.to)
    if (from !== undefined && to !== undefined && !routes.has(`${from}-${to}`)) add(['timetable', i], `no route from ${from} to ${to} in routes`)
    const code = str(d.layout)
    if (code !== undefined && !layoutIndex.has(code)) add(['timetable', i, 'layout'], `unknown layout ${code} (not in layouts)`)
    const types = code !== undefined ? layoutSeatTypes.get(code) : undefined
    const fares = d.fares
    if (types && fares && typeof fares === 'object' && !Array.isArray(fares)) {
      for (const t of seatTypes) if (types.has(t) && !(t in fares)) add(['timetable', i, 'fares'], `missing fare for seat type ${t}`)
      for (const t of Object.keys(fares)) {
        if ((seatTypes as readonly string[]).includes(t) && !types.has(t)) add(['timetable', i, 'fares', t], `layout ${code} has no ${t} seats`)
      }
    }
    checkDates(['timetable', i], d, add)
    checkSaleOpens(i, d, from !== undefined && to !== undefined ? obj(list(root.routes)[routes.get(`${from}-${to}`) ?? -1]) : {}, add)
  })

  firstSeen('timePeriods', 'label', (p) => str(p.label), 'label')
  firstSeen('timePeriods', 'integerValue', (p) => int(p.integerValue), 'integerValue')
  firstSeen('offers', 'couponCode', (o) => str(o.couponCode)?.toUpperCase(), 'coupon code')
  for (const [i, o] of list(root.offers).entries()) checkDates(['offers', i], obj(o), add)
  firstSeen('announcements', 'key', (a) => str(a.key), 'key')
  checkRushDates(list(root.rushDates), routes, add)
  return errors
}

function checkDates(at: (string | number)[], e: Record<string, unknown>, add: (path: (string | number)[], message: string) => void): void {
  const from = str(e.validFrom)
  const until = str(e.validUntil)
  if (from && until && isCalendarDate(from) && isCalendarDate(until) && until < from)
    add([...at, 'validUntil'], `${until} is before validFrom ${from}`)
}

/**
 * A sale that opens on the travel day itself (daysBefore 0) must open before the coach departs,
 * else its trips could never be sold; the rule is the entry's own `saleOpens`, or its route's.
 */
function checkSaleOpens(
  i: number,
  d: Record<string, unknown>,
  route: Record<string, unknown>,
  add: (path: (string | number)[], message: string) => void,
): void {
  const own = 'saleOpens' in d
  const rule = obj(own ? d.saleOpens : route.saleOpens)
  const at = str(rule.at)
  const departs = str(d.departs)
  if (int(rule.daysBefore) !== 0 || at === undefined || departs === undefined || at < departs) return
  const what = own ? 'must open before the coach departs' : "its route's saleOpens must open before this coach departs"
  add(own ? ['timetable', i, 'saleOpens', 'at'] : ['timetable', i], `${what} at ${departs} on the travel day (daysBefore 0), not at ${at}`)
}
