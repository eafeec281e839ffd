/**
 * Issue 30 item 4, the waitlist of a sold-out trip on the real server: on a trip whose every seat
 * is booked or held, a signed-in passenger goes from the search result to the seat page, joins its waitlist and sees their
 * place; another passenger cancels, the freed seat is offered (one SMS, and the page shows the
 * offer with its deadline without a reload), and the passenger books it through the normal
 * booking; a second passenger leaves the list with one click. Every view passes axe.
 */
import { expect, type Page, test } from '@playwright/test'
import {
  bookThroughApi,
  bookWaitlistOffer,
  createPassenger,
  expectNoAxeViolations,
  holdEveryFreeSeat,
  m,
  outbox,
  reservationUrl,
  signInContext,
  tripFor,
} from './helpers.ts'

test.describe.configure({ timeout: 240_000 })

const waitlist = (page: Page) => page.getByTestId('waitlist')

/** Joins the waitlist of the open seat page for `seats` seats, with the keyboard. */
async function join(page: Page, seats: number): Promise<void> {
  await waitlist(page).getByLabel(m('en', 'waitlist.seats')).selectOption(String(seats))
  await waitlist(page)
    .getByRole('button', { name: m('en', 'waitlist.join') })
    .press('Enter')
}

test('a sold-out trip: join its waitlist, a cancelled seat is offered and booked; another passenger leaves with one click', async ({
  page,
  context,
  browser,
  request,
}) => {
  const { trip, date } = await tripFor(request, 11, 3)
  const other = await bookThroughApi(request, { tripId: trip.tripId }, { seats: 1 })
  await holdEveryFreeSeat(request, trip, date)
  const mobile = await createPassenger(request)
  await signInContext(context, request, mobile)
  // the search result of a sold-out trip leads to its waitlist
  await page.goto(`/search?from=DHK&to=CTG&date=${date}`)
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `Coach ${trip.coachCode}`, exact: true }) })
  await expect(card.getByText('No seats available')).toBeVisible()
  await card.getByRole('button', { name: m('en', 'trips.waitlist') }).click()
  await expect(page).toHaveURL(new RegExp(`/reservation\\?tripId=${trip.tripId}&`))
  await expect(waitlist(page).getByRole('heading', { name: m('en', 'waitlist.heading') })).toBeVisible()
  await join(page, 1)
  const status = waitlist(page).getByRole('status').first()
  await expect(status).toHaveText('You are number 1 on the waitlist, for 1 seat.')
  await expectNoAxeViolations(page, 'waitlist: waiting')

  // a second passenger joins behind, and leaves with one click
  const second = await browser.newContext()
  const page2 = await second.newPage()
  await signInContext(second, request, await createPassenger(request))
  await page2.goto(reservationUrl(trip, date))
  await join(page2, 2)
  await expect(waitlist(page2).getByRole('status').first()).toHaveText('You are number 2 on the waitlist, for 2 seats.')
  await waitlist(page2)
    .getByRole('button', { name: m('en', 'waitlist.leave') })
    .click()
  await expect(waitlist(page2).getByRole('button', { name: m('en', 'waitlist.join') })).toBeVisible()
  await expect(waitlist(page2).getByRole('status').first()).toHaveText('')
  await second.close()

  // the other passenger cancels: the seat is held for this one, who is told by SMS and on the page
  const seat = other.seats[0]!
  const cancel = await request.post('/api/reservation/cancelBooking', {
    data: { reservationId: other.reservationId },
    headers: { Authorization: `Bearer ${other.token}` },
  })
  expect(cancel.ok(), await cancel.text()).toBeTruthy()
  await expect(status).toContainText(`Seats ${seat} are held for you until `, { timeout: 20_000 })
  const sms = (await outbox(request)).filter((x) => x.to === mobile && x.body.startsWith('Waitlist:'))
  expect(sms.length).toBe(1)
  expect(sms[0]!.body).toContain(`seats ${seat} on coach ${trip.coachCode}`)
  await expectNoAxeViolations(page, 'waitlist: offered')

  // booked through the normal booking
  await bookWaitlistOffer(page, seat)
})
