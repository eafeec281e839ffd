/**
 * Issue 31 item 3 on the real server, en and bn: a passenger opens their card-paid ticket of two
 * seats, chooses one seat to cancel with the keyboard (the other unticked), sees the quote for it,
 * confirms with the SMS code, and reads what was cancelled and what comes back; the ticket stays
 * paid with the other seat, and the cancelled seat is free on the live map at once.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import type { Reservation } from '../contract/schemas.ts'
import { bookThroughApi, expectNoAxeViolations, m, openOwnTicket, typeCancelCode, tripFor } from './helpers.ts'

test.describe.configure({ timeout: 180_000 })

async function seatStatuses(request: APIRequestContext, tripId: number, names: string[]): Promise<number[]> {
  const res = await request.post('/api/reservation/tripDetails', {
    data: { tripId, originCode: 'DHK', destinationCode: 'CTG', originBusStationId: null, destinationBusStationId: null },
  })
  const seats = ((await res.json()) as { data: { seatLayout: { seats: { name: string; status: number }[] } } }).data.seatLayout.seats
  return names.map((n) => seats.find((x) => x.name === n)!.status)
}

/** Focuses `target` and presses `key`, as a keyboard user does. */
async function press(page: Page, target: ReturnType<Page['getByRole']>, key = 'Enter'): Promise<void> {
  await target.focus()
  await page.keyboard.press(key)
}

for (const lang of ['en', 'bn'] as const) {
  test(`${lang}: cancel one seat of two with the keyboard: the quote for it, the code, the rest of the ticket kept`, async ({ browser, request }) => {
    const { trip } = await tripFor(request, 11, lang === 'en' ? 0 : 1)
    const bought = await bookThroughApi(request, { tripId: trip.tripId }, { seats: 2, pay: true })
    const [gone, kept] = bought.seats as [string, string]
    const page = await openOwnTicket(browser, request, bought, lang)

    await press(page, page.getByRole('button', { name: m(lang, 'ticket.cancelSeats') }))
    await expect(page.getByRole('heading', { name: m(lang, 'ticket.cancelSeats') })).toBeFocused()
    const group = page.getByRole('group', { name: m(lang, 'ticket.cancelSeatsLegend') })
    await expect(group.getByRole('checkbox')).toHaveCount(2)
    await expect(group.getByRole('checkbox', { name: new RegExp(`^${gone} `) })).not.toBeChecked()
    await expectNoAxeViolations(page, `${lang} choosing seats to cancel`)
    // no seat ticked: refused with a sentence, nothing asked of the server
    await press(page, page.getByRole('button', { name: m(lang, 'ticket.showRefund') }))
    await expect(page.getByRole('alert').filter({ hasText: m(lang, 'ticket.cancelSeatsNone') })).toBeVisible()
    await press(page, group.getByRole('checkbox', { name: new RegExp(`^${gone} `) }), 'Space')
    await press(page, page.getByRole('button', { name: m(lang, 'ticket.showRefund') }))

    await expect(page.getByRole('heading', { name: m(lang, 'ticket.cancelSeatsHeading', { seats: gone }) })).toBeFocused()
    const refund = (await page.getByTestId('refund-amount').innerText()).trim()
    await typeCancelCode(page, request, bought.mobile, lang)
    await press(page, page.getByRole('button', { name: m(lang, 'ticket.confirmCancelSeats') }))

    const said = m(lang, 'ticket.seatsCanceledDoneCard', { seats: gone, refund })
    await expect(page.getByRole('paragraph').filter({ hasText: said })).toBeVisible()
    // and read out by screen readers
    await expect(page.getByRole('status').filter({ hasText: said })).toHaveCount(1)
    await expect(page.getByTestId('ticket-status')).toHaveText(m(lang, 'profile.statusSold'))
    await expect(page.getByRole('button', { name: m(lang, 'ticket.cancel'), exact: true })).toBeVisible()
    await expectNoAxeViolations(page, `${lang} ticket after cancelling a seat`)
    expect(await seatStatuses(request, trip.tripId, [gone, kept])).toEqual([0, 1])
    const res = await request.get(`/api/reservation/details/${bought.reservationId}`, { headers: { Authorization: `Bearer ${bought.token}` } })
    const r = ((await res.json()) as { data: Reservation }).data
    expect([r.status, r.seats.map((s) => s.name), r.canceledSeats?.map((s) => s.name)]).toEqual([1, [kept], [gone]])
    await page.context().close()
  })
}
