/**
 * Issue 13, section 7: the smaller findings. Every phone number field asks for `autocomplete="tel"`
 * (`tel-national` fails the autofill rules of two engines); "No city matches what you typed" is
 * announced; each city combobox is one control for a screen reader (its list button is a pointer's
 * way in, not a second control of the same name); the transactions table says "Opening balance" once.
 */
import { expect, test, type Page } from '@playwright/test'
import { comboboxFrameDone, createPassenger, DEMO_PASSENGER, pageHeading, randomMobile, reservationUrl, signInContext, tripFor } from './helpers.ts'

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
  // the list opened by typing moves the caret to the field's end a frame later: the next fill must come after it
  await comboboxFrameDone(page)
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

/** Tab from the password field reaches Show password; Enter shows the password, Space hides it again (WCAG 2.1.1). */
async function showHideByKeyboard(page: Page, field: ReturnType<Page['getByLabel']>): Promise<void> {
  await field.focus()
  await page.keyboard.type('Secret@1')
  await page.keyboard.press('Tab')
  const show = page.getByRole('button', { name: 'Show password' }).and(page.locator(':focus'))
  await expect(show).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(field).toHaveAttribute('type', 'text')
  await expect(page.getByRole('button', { name: 'Hide password' }).and(page.locator(':focus'))).toBeFocused()
  await page.keyboard.press('Space')
  await expect(field).toHaveAttribute('type', 'password')
}

test('Show/Hide password is reached by Tab and works with Enter and Space: log in, sign up, new password, change password', async ({
  page,
  context,
  request,
}) => {
  // log in
  await page.goto('/login')
  await pageHeading(page)
  await page.getByLabel('Mobile no.').fill(DEMO_PASSENGER.mobile)
  await page.getByRole('button', { name: 'Continue' }).click()
  await showHideByKeyboard(page, page.getByLabel('Password', { exact: true }))
  // sign up: both of the pair
  await page.goto('/login')
  await pageHeading(page)
  await page.getByLabel('Mobile no.').fill(randomMobile())
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByLabel('Full name')).toBeVisible()
  const signUpFields = page.locator('input[autocomplete="new-password"]')
  await expect(signUpFields).toHaveCount(2)
  for (let i = 0; i < 2; i++) await showHideByKeyboard(page, signUpFields.nth(i))
  // change password on the profile
  await signInContext(context, request, await createPassenger(request))
  await page.goto('/profile')
  await pageHeading(page)
  const current = page.locator('input[autocomplete="current-password"]')
  await expect(current).toHaveCount(1)
  await showHideByKeyboard(page, current)
})
