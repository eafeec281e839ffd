/**
 * Issue 13, section 7: the smaller findings. Every phone number field asks for `autocomplete="tel"`
 * (`tel-national` fails the autofill rules of two engines); "No city matches what you typed" is
 * announced; each city combobox is one control for a screen reader (its list button is a pointer's
 * way in, not a second control of the same name); the transactions table says "Opening balance" once.
 */
import { expect, test, type Page } from '@playwright/test'
import { createPassenger, DEMO_PASSENGER, pageHeading, randomMobile, reservationUrl, signInContext, tripFor } from './helpers.ts'

/** The autocomplete of every phone number field on the page. */
const telAutocomplete = (page: Page) => page.locator('input[type="tel"]').evaluateAll((els) => els.map((e) => e.getAttribute('autocomplete')))

test('every phone number field asks for autocomplete="tel": log in, sign up, contact us, the booking form', async ({ page, context, request }) => {
  await page.goto('/login')
  await pageHeading(page)
  expect(await telAutocomplete(page)).toEqual(['tel'])
  await page.getByLabel('Mobile no.').fill(randomMobile())
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByLabel('Full name')).toBeVisible()
  expect(await telAutocomplete(page)).toEqual(['tel'])

  await page.goto('/contact-us')
  await pageHeading(page)
  expect(await telAutocomplete(page)).toEqual(['tel'])

  const { trip, date } = await tripFor(request, 19, 3)
  await signInContext(context, request, await createPassenger(request))
  await page.goto(reservationUrl(trip, date))
  await pageHeading(page)
  await page.getByRole('grid').locator('button[data-state="available"]').first().click()
  await expect(page.getByLabel('Passenger mobile no.')).toBeVisible()
  expect(await telAutocomplete(page)).toEqual(['tel'])
})

test('the city combobox: one control named From, and "No city matches what you typed" is announced', async ({ page }) => {
  await page.goto('/')
  await pageHeading(page)
  await expect(page.locator('input[role="combobox"]')).toHaveCount(2)
  const search = page.getByRole('search', { name: 'Search trips' })
  for (const name of ['From', 'To']) {
    await expect(search.getByRole('combobox', { name })).toHaveCount(1)
    await expect(search.getByRole('button', { name, exact: true })).toHaveCount(0)
  }
  const from = search.getByRole('combobox', { name: 'From' })
  await from.fill('Zzyzx')
  const status = page.getByRole('status').filter({ hasText: 'No city matches what you typed' })
  await expect(status).toHaveCount(1)
  await from.fill('Dha')
  await expect(status).toHaveCount(0)
})

test('the transactions table says "Opening balance" once', async ({ page, context, request }) => {
  await signInContext(context, request, DEMO_PASSENGER.mobile, DEMO_PASSENGER.password)
  await page.goto('/profile')
  await pageHeading(page)
  const opening = page.getByRole('table').getByRole('row').filter({ hasText: 'Opening balance' })
  await expect(opening).toHaveCount(1)
  expect((await opening.innerText()).match(/Opening balance/g)).toHaveLength(1)
})
