/**
 * The ticket and cancellation messages, in the language the passenger booked in
 * (English or Bengali): a short SMS, and an e-mail with a plain-text part, an HTML
 * part in which every value is escaped, and (for a ticket) the trip as an .ics
 * file. Dates and times are written as the app's pages write them (contract/dhaka-dates.ts,
 * Bengali digits and month names in bn), amounts as the pages write them (contract/money.ts); PNR, PIN, coach and seat
 * names stay as printed on the ticket.
 */
import type { Company, PaySource, Reservation } from '../../contract/schemas.ts'
import type { OutboxAttachment } from '../core.ts'
import { formatDate, formatDayMonth, formatTime } from '../../contract/dhaka-dates.ts'
import { buildIcs } from '../../contract/ics.ts'
import { formatMoney } from '../../contract/money.ts'

/** A language the messages are written in. */
export type Language = 'en' | 'bn'

/** bn when the Accept-Language header starts with `bn`, else en. */
export function languageOf(acceptLanguage: string | string[] | undefined): Language {
  const h = Array.isArray(acceptLanguage) ? acceptLanguage[0] : acceptLanguage
  return typeof h === 'string' && /^\s*bn\b/i.test(h) ? 'bn' : 'en'
}

/** What every message needs besides the reservation. */
export interface MessageContext {
  company: Company
  /** Public origin of the web app (the ticket page link). */
  appUrl: string
  /** When the message is written (the .ics stamp). */
  now: Date
}

/** A rendered e-mail. */
export interface RenderedEmail {
  subject: string
  text: string
  html: string
  attachments: OutboxAttachment[]
}

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

const date = (lang: Language, iso: string) => formatDate(iso, lang)
const time = (lang: Language, iso: string) => formatTime(iso, lang)

const city = (lang: Language, c: Reservation['origin']) => (lang === 'bn' ? c.nameBn : c.name)

interface Words {
  subject: (pnr: string, from: string, to: string, day: string) => string
  dear: (name: string) => string
  intro: string
  pnr: string
  pin: string
  trip: string
  route: (from: string, to: string) => string
  departure: string
  coach: string
  seats: string
  boarding: string
  dropping: string
  passenger: string
  paid: string
  calendar: string
  manage: string
  keepSecret: string
  sms: (p: { pnr: string; pin: string; from: string; to: string; when: string; coach: string; seats: string; link: string }) => string
  calendarSummary: (from: string, to: string, coach: string, seats: string) => string
  calendarDescription: (pnr: string, seats: string, boarding: string, phone: string) => string
  cancelSubject: (pnr: string) => string
  cancelled: (pnr: string, route: string, day: string, refund: string, to: RefundPlace) => string
  seatsCancelSubject: (pnr: string) => string
  seatsCancelled: (p: SeatsCancel) => string
  /** The SMS of seatsCancelled: in Bengali without the route and day (the PNR names the ticket), three Unicode parts. */
  seatsCancelledSms: (p: SeatsCancel) => string
  tripCanceledSubject: (route: string, day: string) => string
  tripCanceled: (p: { route: string; day: string; coach: string; reason: string; pnr: string; refund: string; to: RefundPlace }) => string
  bookingCanceled: (p: { route: string; day: string; coach: string; reason: string }) => string
  latePayment: (p: { route: string; day: string; coach: string; reason: string; refund: string; to: RefundPlace }) => string
  movedSubject: (pnr: string) => string
  moved: (p: { pnr: string; route: string; coach: string; when: string; seats: string; page: string }) => string
  changedSubject: (pnr: string) => string
  changed: (p: { pnr: string; route: string; when: string; coach: string; seats: string; money: string }) => string
  changePaid: (amount: string) => string
  changeRefusedSubject: (pnr: string) => string
  changeRefused: (p: { pnr: string; refund: string; to: RefundPlace }) => string
}

/** A refund split between places (gateway payments first, as refundSplit orders them): each part's place and amount. */
export type RefundSplit = { place: PaySource | 'BALANCE'; amount: number }[]

/** Where a refund goes: the card paid with, the account balance, nowhere (nothing refunded), or split between places. */
export type RefundTo = 'CARD' | 'BALANCE' | null | RefundSplit

/** Where a refund goes, the gateway's part named by where the money came from (Reservation.paidWith). */
type RefundPlace = PaySource | 'BALANCE' | null | RefundSplit

/** `to` named for `r`: a refund to the gateway goes back to the wallet, bank or card the ticket was paid with. */
const placeOf = (r: Pick<Reservation, 'paidWith'>, to: RefundTo): RefundPlace => (to === 'CARD' ? (r.paidWith ?? 'card') : to)

// the first part of a split paid through the gateway says how long its refund takes to show
const gatewayOf = (split: RefundSplit) => split.find((p) => p.place !== 'BALANCE')?.place as PaySource | undefined
const bankShows = (p: PaySource | undefined) => p === 'card' || p === 'bank'

/** Where the money goes back, in English ("your bKash wallet"); exported for the operator's refund list. */
export const enPlace: Record<PaySource, string> = {
  card: 'the card you paid with',
  bkash: 'your bKash wallet',
  nagad: 'your Nagad wallet',
  rocket: 'your Rocket wallet',
  wallet: 'the mobile wallet you paid with',
  bank: 'the bank account you paid from',
}
const bnPlace: Record<PaySource, string> = {
  card: 'যে কার্ডে পরিশোধ করেছিলেন সেই কার্ডে',
  bkash: 'আপনার বিকাশ ওয়ালেটে',
  nagad: 'আপনার নগদ ওয়ালেটে',
  rocket: 'আপনার রকেট ওয়ালেটে',
  wallet: 'যে মোবাইল ওয়ালেট থেকে পরিশোধ করেছিলেন সেই ওয়ালেটে',
  bank: 'যে ব্যাংক অ্যাকাউন্ট থেকে পরিশোধ করেছিলেন সেই অ্যাকাউন্টে',
}

const enSplit = (split: RefundSplit, lang: Language) => {
  const [first, ...rest] = split.map((p) => `${formatMoney(p.amount, lang)} to ${p.place === 'BALANCE' ? 'your balance' : enPlace[p.place]}`)
  return `${first!.replace(' to ', ' is being refunded to ')}${rest.map((x) => ` and ${x}`).join('')}; ${bankShows(gatewayOf(split)) ? 'your bank' : 'it'} may take a few days to show it.`
}
const enRefund = (refund: string, to: RefundPlace) =>
  Array.isArray(to)
    ? enSplit(to, 'en')
    : to === 'BALANCE'
      ? `${refund} is refunded to your balance.`
      : to === null
        ? 'Nothing is refunded.'
        : `${refund} is being refunded to ${enPlace[to]}; ${bankShows(to) ? 'your bank' : 'it'} may take a few days to show it.`
// shorter than the one-place sentence ("ব্যালেন্সে", no "আপনার ব্যাংকে"): a card and the balance stay within three Unicode parts
const bnSplit = (split: RefundSplit) =>
  `${split.map((p) => `${p.place === 'BALANCE' ? 'ব্যালেন্সে' : bnPlace[p.place]} ${formatMoney(p.amount, 'bn')}`).join(' ও ')} ফেরত পাঠানো হচ্ছে; দেখাতে কয়েক দিন লাগতে পারে।`
const bnRefund = (refund: string, to: RefundPlace) =>
  Array.isArray(to)
    ? bnSplit(to)
    : to === 'BALANCE'
      ? `আপনার ব্যালেন্সে ${refund} ফেরত দেওয়া হয়েছে।`
      : to === null
        ? 'কোনো টাকা ফেরত দেওয়া হয়নি।'
        : `${bnPlace[to]} ${refund} ফেরত পাঠানো হচ্ছে; ${bankShows(to) ? 'আপনার ব্যাংকে ' : ''}দেখাতে কয়েক দিন লাগতে পারে।`

// The operator's reason after a colon (its own full stop dropped), or the sentence's end alone when there is none in the language.
const said = (reason: string, stop: string) => {
  const text = reason.trim().replace(/[.।]+$/, '')
  return text ? `: ${text}${stop}` : stop
}

const words: Record<Language, Words> = {
  en: {
    subject: (pnr, from, to, day) => `Your bus ticket ${pnr}: ${from} to ${to}, ${day}`,
    dear: (name) => `Dear ${name},`,
    intro: 'Your ticket is confirmed. Show the PNR and PIN at the boarding counter.',
    pnr: 'PNR',
    pin: 'PIN',
    trip: 'Trip',
    route: (from, to) => `${from} to ${to}`,
    departure: 'Departure',
    coach: 'Coach',
    seats: 'Seats',
    boarding: 'Boarding counter',
    dropping: 'Dropping counter',
    passenger: 'Passenger',
    paid: 'Fare paid',
    calendar: 'The attached calendar file adds the trip to your calendar.',
    manage: 'View, print or cancel this ticket with its PNR and PIN at',
    keepSecret: 'Keep the PIN private: anyone who has the PNR and PIN can cancel the ticket.',
    sms: (p) => `PNR ${p.pnr} PIN ${p.pin}. ${p.from}-${p.to} ${p.when}, coach ${p.coach}, seats ${p.seats} ${p.link}`,
    calendarSummary: (from, to, coach, seats) => `Bus ${from} to ${to}, coach ${coach}, seats ${seats}`,
    calendarDescription: (pnr, seats, boarding, phone) => `PNR ${pnr}. Seats ${seats}. Board at ${boarding} (${phone}).`,
    cancelSubject: (pnr) => `Ticket ${pnr} cancelled`,
    cancelled: (pnr, route, day, refund, to) => `Ticket ${pnr} (${route}, ${day}) is cancelled. ${enRefund(refund, to)}`,
    seatsCancelSubject: (pnr) => `Seats cancelled on ticket ${pnr}`,
    seatsCancelled: (p) =>
      `Seats ${p.cancelled} of ticket ${p.pnr} (${p.route}, ${p.day}) are cancelled. ${enRefund(p.refund, p.to)} Seats ${p.kept} stay booked; your PNR and PIN are unchanged.`,
    seatsCancelledSms: (p) => words.en.seatsCancelled(p),
    tripCanceledSubject: (route, day) => `Trip cancelled: ${route}, ${day}`,
    tripCanceled: (p) =>
      `The operator has cancelled the trip ${p.route}, ${p.day} (coach ${p.coach})${said(p.reason, '.')} Ticket ${p.pnr}: ${enRefund(p.refund, p.to)}`,
    bookingCanceled: (p) =>
      `The operator has cancelled the trip ${p.route}, ${p.day} (coach ${p.coach})${said(p.reason, '.')} Your unpaid booking is cancelled.`,
    latePayment: (p) =>
      `Your payment of ${p.refund} for the trip ${p.route}, ${p.day} (coach ${p.coach}) arrived after the operator had cancelled the trip${said(p.reason, '.')} No ticket was issued. ${enRefund(p.refund, p.to)}`,
    movedSubject: (pnr) => `Ticket ${pnr} moved to another coach`,
    moved: (p) =>
      `Ticket ${p.pnr} (${p.route}) is moved to coach ${p.coach}, departing ${p.when}, seats ${p.seats}. The PNR and PIN stay the same. If it does not suit you, cancel it at ${p.page} for a full refund.`,
    changedSubject: (pnr) => `Ticket ${pnr} changed`,
    changed: (p) => `Ticket ${p.pnr} is changed: ${p.route}, ${p.when}, coach ${p.coach}, seats ${p.seats}. PNR and PIN stay the same.${p.money}`,
    changePaid: (amount) => `You paid ${amount} more.`,
    changeRefusedSubject: (pnr) => `Ticket ${pnr} not changed`,
    changeRefused: (p) =>
      `Your payment for changing ticket ${p.pnr} arrived after the change had ended; the ticket is unchanged. ${enRefund(p.refund, p.to)}`,
  },
  bn: {
    subject: (pnr, from, to, day) => `আপনার বাস টিকিট ${pnr}: ${from} থেকে ${to}, ${day}`,
    dear: (name) => `প্রিয় ${name},`,
    intro: 'আপনার টিকিট নিশ্চিত হয়েছে। বোর্ডিং কাউন্টারে পিএনআর ও পিন দেখান।',
    pnr: 'পিএনআর',
    pin: 'পিন',
    trip: 'যাত্রা',
    route: (from, to) => `${from} থেকে ${to}`,
    departure: 'ছাড়ার সময়',
    coach: 'কোচ',
    seats: 'আসন',
    boarding: 'বোর্ডিং কাউন্টার',
    dropping: 'নামার কাউন্টার',
    passenger: 'যাত্রী',
    paid: 'পরিশোধিত ভাড়া',
    calendar: 'সংযুক্ত ক্যালেন্ডার ফাইলটি যাত্রাটি আপনার ক্যালেন্ডারে যোগ করে।',
    manage: 'পিএনআর ও পিন দিয়ে টিকিটটি দেখুন, প্রিন্ট করুন বা বাতিল করুন:',
    keepSecret: 'পিন গোপন রাখুন: পিএনআর ও পিন জানলে যে কেউ টিকিট বাতিল করতে পারে।',
    sms: (p) => `পিএনআর ${p.pnr} পিন ${p.pin}। ${p.from}-${p.to} ${p.when}, কোচ ${p.coach}, আসন ${p.seats} ${p.link}`,
    calendarSummary: (from, to, coach, seats) => `বাস ${from} থেকে ${to}, কোচ ${coach}, আসন ${seats}`,
    calendarDescription: (pnr, seats, boarding, phone) => `পিএনআর ${pnr}। আসন ${seats}। বোর্ডিং: ${boarding} (${phone})।`,
    cancelSubject: (pnr) => `টিকিট ${pnr} বাতিল হয়েছে`,
    cancelled: (pnr, route, day, refund, to) => `টিকিট ${pnr} (${route}, ${day}) বাতিল হয়েছে। ${bnRefund(refund, to)}`,
    seatsCancelSubject: (pnr) => `টিকিট ${pnr}-এর কিছু আসন বাতিল হয়েছে`,
    seatsCancelled: (p) =>
      `টিকিট ${p.pnr} (${p.route}, ${p.day})-এর আসন ${p.cancelled} বাতিল হয়েছে। ${bnRefund(p.refund, p.to)} আসন ${p.kept} বহাল আছে; আপনার PNR ও PIN একই থাকছে।`,
    seatsCancelledSms: (p) => `টিকিট ${p.pnr}-এর আসন ${p.cancelled} বাতিল। ${bnRefund(p.refund, p.to)} আসন ${p.kept} বহাল; PNR ও PIN একই।`,
    tripCanceledSubject: (route, day) => `যাত্রা বাতিল: ${route}, ${day}`,
    tripCanceled: (p) =>
      `অপারেটর ${p.route}, ${p.day} (কোচ ${p.coach}) যাত্রাটি বাতিল করেছে${said(p.reason, '।')} টিকিট ${p.pnr}: ${bnRefund(p.refund, p.to)}`,
    bookingCanceled: (p) => `অপারেটর ${p.route}, ${p.day} (কোচ ${p.coach}) যাত্রাটি বাতিল করেছে${said(p.reason, '।')} আপনার অপরিশোধিত বুকিং বাতিল হয়েছে।`,
    latePayment: (p) =>
      `${p.route}, ${p.day} (কোচ ${p.coach}) যাত্রার জন্য আপনার ${p.refund} পরিশোধ অপারেটর যাত্রাটি বাতিল করার পরে পৌঁছেছে${said(p.reason, '।')} কোনো টিকিট দেওয়া হয়নি। ${bnRefund(p.refund, p.to)}`,
    movedSubject: (pnr) => `টিকিট ${pnr} অন্য কোচে সরানো হয়েছে`,
    moved: (p) =>
      `টিকিট ${p.pnr} (${p.route}) কোচ ${p.coach}-এ সরানো হয়েছে, ছাড়ার সময় ${p.when}, আসন ${p.seats}। পিএনআর ও পিন একই থাকবে। সুবিধাজনক না হলে ${p.page} থেকে বাতিল করুন, পুরো টাকা ফেরত পাবেন।`,
    changedSubject: (pnr) => `টিকিট ${pnr} বদলানো হয়েছে`,
    changed: (p) => `টিকিট ${p.pnr} বদলানো হয়েছে: ${p.route}, ${p.when}, কোচ ${p.coach}, আসন ${p.seats}। পিএনআর ও পিন একই থাকবে।${p.money}`,
    changePaid: (amount) => `আপনি আরও ${amount} পরিশোধ করেছেন।`,
    changeRefusedSubject: (pnr) => `টিকিট ${pnr} বদলানো হয়নি`,
    changeRefused: (p) => `টিকিট ${p.pnr} বদলানোর পরিশোধ বদলের সময় শেষ হওয়ার পরে পৌঁছেছে; টিকিট আগের মতোই আছে। ${bnRefund(p.refund, p.to)}`,
  },
}

const seatList = (r: Reservation) => r.seats.map((s) => s.name).join(', ')
const boardingTime = (r: Reservation) => r.boardingStation.time ?? r.departureTime
const ticketPage = (ctx: Pick<MessageContext, 'appUrl'>) => `${ctx.appUrl}/ticket-operation`

/**
 * The ticket SMS: PNR, PIN, route, departure, coach, seats and `link`, the ticket's own page
 * (counter, fare and QR code are there): one 160-character GSM part in English, and few
 * 70-character Unicode parts in Bengali (smsParts; ticket-messages.test.ts).
 */
export function renderTicketSms(r: Reservation, lang: Language, link: string): string {
  return words[lang].sms({
    pnr: r.pnr ?? '',
    pin: r.pin ?? '',
    from: city(lang, r.origin),
    to: city(lang, r.destination),
    when: `${formatDayMonth(boardingTime(r), lang)} ${time(lang, boardingTime(r))}`,
    coach: r.coach.code,
    seats: r.seats.map((s) => s.name).join(','),
    link,
  })
}

/** The ticket e-mail: subject, plain text, escaped HTML and `ticket-<PNR>.ics`. */
export function renderTicketEmail(r: Reservation, lang: Language, ctx: MessageContext, lead?: { subject: string; intro: string }): RenderedEmail {
  const w = words[lang]
  const intro = lead?.intro ?? w.intro
  const from = city(lang, r.origin)
  const to = city(lang, r.destination)
  const board = boardingTime(r)
  const rows: [string, string][] = [
    [w.pnr, r.pnr ?? ''],
    [w.pin, r.pin ?? ''],
    [w.trip, w.route(from, to)],
    [w.departure, `${date(lang, board)}, ${time(lang, board)}`],
    [w.coach, `${r.coach.code} (${r.coach.name})`],
    [w.seats, seatList(r)],
    [w.boarding, `${r.boardingStation.name}, ${r.boardingStation.address} (${r.boardingStation.phone})`],
    [w.dropping, `${r.droppingStation.name}, ${r.droppingStation.address}`],
    [w.passenger, `${r.passengerName}, ${r.passengerMobile}`],
    [w.paid, formatMoney(r.fare.total, lang)],
  ]
  const subject = lead?.subject ?? w.subject(r.pnr ?? '', from, to, date(lang, board))
  const signature = [ctx.company.name, ctx.company.phone, ctx.company.email].filter(Boolean).join(', ')
  const text = [
    w.dear(r.passengerName),
    '',
    intro,
    '',
    ...rows.map(([k, v]) => `${k}: ${v}`),
    '',
    w.calendar,
    `${w.manage} ${ticketPage(ctx)}`,
    w.keepSecret,
    '',
    signature,
  ].join('\n')
  const table = rows
    .map(([k, v], i) => {
      const value = i < 2 ? `<strong style="font-family:monospace;font-size:18px">${escapeHtml(v)}</strong>` : escapeHtml(v)
      return `<tr><th scope="row" style="text-align:left;padding:4px 16px 4px 0;vertical-align:top">${escapeHtml(k)}</th><td style="padding:4px 0">${value}</td></tr>`
    })
    .join('\n')
  const html = page(lang, subject, [
    `<p>${escapeHtml(w.dear(r.passengerName))}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<table role="presentation" style="border-collapse:collapse">\n${table}\n</table>`,
    `<p>${escapeHtml(w.calendar)}</p>`,
    `<p>${escapeHtml(w.manage)} <a href="${escapeHtml(ticketPage(ctx))}">${escapeHtml(ticketPage(ctx))}</a></p>`,
    `<p>${escapeHtml(w.keepSecret)}</p>`,
    `<p style="color:#555">${escapeHtml(signature)}</p>`,
  ])
  const ics = buildIcs({
    // The web app's "add to calendar" uses the same id, so both add one event.
    uid: `reservation-${r.id}@nodiexpress.com.bd`,
    start: new Date(board),
    end: new Date(r.droppingStation.time ?? r.arrivalTime),
    summary: w.calendarSummary(from, to, r.coach.code, seatList(r)),
    location: [r.boardingStation.name, r.boardingStation.address].filter(Boolean).join(', '),
    description: w.calendarDescription(r.pnr ?? '', seatList(r), r.boardingStation.name, r.boardingStation.phone),
    stamp: ctx.now,
    producer: ctx.company.name || 'Bus ticket',
  })
  return {
    subject,
    text,
    html,
    attachments: [{ filename: `ticket-${r.pnr}.ics`, contentType: 'text/calendar; charset=utf-8; method=PUBLISH', content: ics }],
  }
}

/** The cancellation SMS. */
export function renderCancelSms(r: Reservation, lang: Language, refund: number, to: RefundTo = 'BALANCE'): string {
  const w = words[lang]
  return w.cancelled(
    r.pnr ?? '',
    w.route(city(lang, r.origin), city(lang, r.destination)),
    date(lang, boardingTime(r)),
    formatMoney(refund, lang),
    placeOf(r, to),
  )
}

/** The cancellation e-mail. */
export function renderCancelEmail(r: Reservation, lang: Language, refund: number, ctx: MessageContext, to: RefundTo = 'BALANCE'): RenderedEmail {
  const w = words[lang]
  return noticeEmail(r, lang, w.cancelSubject(r.pnr ?? ''), renderCancelSms(r, lang, refund, to), ctx)
}

/** What the messages of seats cancelled from a ticket say. */
interface SeatsCancel {
  pnr: string
  route: string
  day: string
  cancelled: string
  kept: string
  refund: string
  to: RefundPlace
}

const seatsCancel = (r: Reservation, lang: Language, cancelled: string[], refund: number, to: RefundTo): SeatsCancel => {
  const w = words[lang]
  return {
    pnr: r.pnr ?? '',
    route: w.route(city(lang, r.origin), city(lang, r.destination)),
    day: date(lang, boardingTime(r)),
    cancelled: cancelled.join(', '),
    kept: seatList(r),
    refund: formatMoney(refund, lang),
    to: placeOf(r, to),
  }
}

/** The SMS telling a passenger that seats `cancelled` of ticket `r` (as it is after the cancel, its remaining seats) are cancelled. */
export function renderSeatsCancelSms(r: Reservation, lang: Language, cancelled: string[], refund: number, to: RefundTo): string {
  return words[lang].seatsCancelledSms(seatsCancel(r, lang, cancelled, refund, to))
}

/** The e-mail of renderSeatsCancelSms, with the ticket's route and day in Bengali too. */
export function renderSeatsCancelEmail(
  r: Reservation,
  lang: Language,
  cancelled: string[],
  refund: number,
  ctx: MessageContext,
  to: RefundTo,
): RenderedEmail {
  return noticeEmail(
    r,
    lang,
    words[lang].seatsCancelSubject(r.pnr ?? ''),
    words[lang].seatsCancelled(seatsCancel(r, lang, cancelled, refund, to)),
    ctx,
  )
}

/** What a passenger's change of a ticket cost: the difference paid (0: none), or refunded and where. */
export interface ChangeMoney {
  paid: number
  refund: number
  refundTo: RefundTo
}

const changeMoney = (r: Reservation, lang: Language, m: ChangeMoney) => {
  const w = words[lang]
  if (m.paid > 0) return ` ${w.changePaid(formatMoney(m.paid, lang))}`
  if (m.refund > 0) return ` ${(lang === 'bn' ? bnRefund : enRefund)(formatMoney(m.refund, lang), placeOf(r, m.refundTo))}`
  return ''
}

const changedLine = (r: Reservation, lang: Language, m: ChangeMoney) => {
  const w = words[lang]
  return w.changed({
    pnr: r.pnr ?? '',
    route: w.route(city(lang, r.origin), city(lang, r.destination)),
    when: `${date(lang, boardingTime(r))} ${time(lang, boardingTime(r))}`,
    coach: r.coach.code,
    seats: seatList(r),
    money: changeMoney(r, lang, m),
  })
}

/** The SMS of a ticket the passenger moved to another trip (`r` as it is now): its trip and seats, the money, and its `link`. */
export function renderTicketChangeSms(r: Reservation, lang: Language, m: ChangeMoney, link: string): string {
  return `${changedLine(r, lang, m)} ${link}`
}

/** The e-mail of a changed ticket: the whole ticket as it is now, led by what changed. */
export function renderTicketChangeEmail(r: Reservation, lang: Language, ctx: MessageContext, m: ChangeMoney): RenderedEmail {
  return renderTicketEmail(r, lang, ctx, { subject: words[lang].changedSubject(r.pnr ?? ''), intro: changedLine(r, lang, m) })
}

/** The SMS telling a passenger that a change's payment of `refund` came too late and goes back to `to`. */
export function renderChangeRefusedSms(r: Reservation, lang: Language, refund: number, to: RefundTo): string {
  return words[lang].changeRefused({ pnr: r.pnr ?? '', refund: formatMoney(refund, lang), to: placeOf(r, to) })
}

/** The e-mail of renderChangeRefusedSms. */
export function renderChangeRefusedEmail(r: Reservation, lang: Language, refund: number, to: RefundTo, ctx: MessageContext): RenderedEmail {
  return noticeEmail(r, lang, words[lang].changeRefusedSubject(r.pnr ?? ''), renderChangeRefusedSms(r, lang, refund, to), ctx)
}

/** The operator's reason for a trip change in each language; a passenger reads the one of the language they booked in. */
export interface TripReason {
  en: string
  /** Null when the operator gave none: a Bengali notice then says no reason rather than the English one. */
  bn: string | null
}

/** What the operator did to a reservation's trip (npm run trip). */
export type TripChange =
  | { kind: 'canceled'; reason: TripReason; refund: number; refundTo?: RefundTo }
  | { kind: 'bookingCanceled'; reason: TripReason }
  /** A card payment that arrived after the trip was cancelled: no ticket, the amount refunded. */
  | { kind: 'latePayment'; reason: TripReason; refund: number; refundTo: RefundTo }
  | { kind: 'moved' }

/** The SMS telling a passenger what the operator did to their trip; `r` as it is after the change. */
export function renderTripChangeSms(r: Reservation, lang: Language, change: TripChange, ctx: Pick<MessageContext, 'appUrl'>): string {
  const w = words[lang]
  const route = w.route(city(lang, r.origin), city(lang, r.destination))
  if (change.kind === 'moved') {
    return w.moved({
      pnr: r.pnr ?? '',
      route,
      coach: r.coach.code,
      when: `${date(lang, boardingTime(r))} ${time(lang, boardingTime(r))}`,
      seats: seatList(r),
      page: ticketPage(ctx),
    })
  }
  const trip = { route, day: date(lang, boardingTime(r)), coach: r.coach.code, reason: (lang === 'bn' ? change.reason.bn : change.reason.en) ?? '' }
  if (change.kind === 'latePayment') return w.latePayment({ ...trip, refund: formatMoney(change.refund, lang), to: placeOf(r, change.refundTo) })
  return change.kind === 'canceled'
    ? w.tripCanceled({ ...trip, pnr: r.pnr ?? '', refund: formatMoney(change.refund, lang), to: placeOf(r, change.refundTo ?? 'BALANCE') })
    : w.bookingCanceled(trip)
}

/** The e-mail of the same notice. */
export function renderTripChangeEmail(r: Reservation, lang: Language, change: TripChange, ctx: MessageContext): RenderedEmail {
  const w = words[lang]
  const subject =
    change.kind === 'moved'
      ? w.movedSubject(r.pnr ?? '')
      : w.tripCanceledSubject(w.route(city(lang, r.origin), city(lang, r.destination)), date(lang, boardingTime(r)))
  return noticeEmail(r, lang, subject, renderTripChangeSms(r, lang, change, ctx), ctx)
}

function noticeEmail(r: Reservation, lang: Language, subject: string, line: string, ctx: MessageContext): RenderedEmail {
  const w = words[lang]
  const signature = [ctx.company.name, ctx.company.phone, ctx.company.email].filter(Boolean).join(', ')
  const text = [w.dear(r.passengerName), '', line, '', signature].join('\n')
  const html = page(lang, subject, [
    `<p>${escapeHtml(w.dear(r.passengerName))}</p>`,
    `<p>${escapeHtml(line)}</p>`,
    `<p style="color:#555">${escapeHtml(signature)}</p>`,
  ])
  return { subject, text, html, attachments: [] }
}

function page(lang: Language, title: string, parts: string[]): string {
  return [
    '<!doctype html>',
    `<html lang="${lang}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title></head>`,
    "<body style=\"margin:0;padding:16px;font-family:system-ui,-apple-system,'Segoe UI','Noto Sans Bengali',sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a\">",
    ...parts,
    '</body>',
    '</html>',
  ].join('\n')
}
