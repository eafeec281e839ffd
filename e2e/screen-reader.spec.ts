/**
 * Issue 13: tests that hear the page. A virtual screen reader (e2e/screen-reader.ts) follows the
 * focus the real keyboard moves and logs what it says; each test asserts the spoken phrases, in
 * English and in Bengali: the seat map (a seat, after choosing it, after another passenger took it),
 * the booking form's errors, the code entry, the hold warning, and the city search finding nothing.
 * The screen reader's own words (roles and states such as "button", "not pressed", "invalid") are
 * its own, in English.
 */
import { expect, test, type Page } from '@playwright/test'
import { createPassenger, fillSignUp, m, pageHeading, randomMobile, reservationUrl, signInContext, tripFor, withoutLiveSeatMap } from './helpers.ts'
import { clearSpoken, serveScreenReader, spoken, startScreenReader } from './screen-reader.ts'

test.describe.configure({ timeout: 120_000 })

/** Waits until the screen reader has said a phrase matching `what` (since the last clear); answers everything said. */
async function hears(page: Page, what: string | RegExp): Promise<string[]> {
  const matches = (p: string) => (typeof what === 'string' ? p === what : what.test(p))
  // on failure, what was said instead
  await expect
    .poll(
      async () => {
        const log = await spoken(page)
        return log.some(matches) ? 'heard' : log
      },
      { message: `heard ${what}` },
    )
    .toBe('heard')
  return spoken(page)
}

/** `text` as a pattern that matches it literally. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The open seat page with counters chosen, the screen reader on and focus on the grid's first seat; answers its name. */
async function seatPage(page: Page, url: string): Promise<string> {
  await serveScreenReader(page)
  await page.goto(url)
  await pageHeading(page)
  await page.getByRole('combobox').first().selectOption({ index: 1 })
  await page.getByRole('combobox').nth(1).selectOption({ index: 1 })
  await startScreenReader(page)
  await page.getByRole('grid').locator('button[tabindex="0"]').focus()
  return (await page.evaluate(() => document.activeElement?.getAttribute('data-seat')))!
}

for (const [index, lang] of (['en', 'bn'] as const).entries()) {
  test.describe(lang, () => {
    test.beforeEach(async ({ context }) => {
      await context.addInitScript((l) => sessionStorage.setItem('language', l), lang)
    })

    test('the seat map: a seat, the seat chosen, and a seat another passenger took', async ({ page, browser, request }) => {
      const { trip, date } = await tripFor(request, 20, index)
      // a stale seat map (no live one), so the seat another passenger takes meets the lock-lost dialog
      await withoutLiveSeatMap(page)
      const first = await seatPage(page, reservationUrl(trip, date))
      // a seat: its name, deck, type, fare and state, then the button's own state
      const seatWord = lang === 'en' ? 'Seat' : 'আসন'
      const available = literal(m(lang, 'seatState.available'))
      await hears(page, new RegExp(`^button, ${seatWord} ${first}, ${literal(m(lang, 'seatChoice.lowerDeckLower'))}, .+, ${available}, not pressed$`))

      await clearSpoken(page)
      await page.keyboard.press('Enter')
      const total = lang === 'en' ? /1 seat selected, total [\d,]+ Tk\.$/ : /[০-৯]+টি আসন নির্বাচিত, মোট [০-৯,]+ টাকা।$/
      const said = await hears(page, new RegExp(`^polite: ${literal(m(lang, 'seatChoice.announceSelected', { name: first }))}`))
      expect(said.find((p) => p.startsWith('polite: '))).toMatch(total)

      // the next seat, which another passenger takes while this page still shows it available
      await page.keyboard.press('ArrowRight')
      const next = (await page.evaluate(() => document.activeElement?.getAttribute('data-seat')))!
      expect(next).not.toBe(first)
      const other = await (await browser.newContext()).newPage()
      await other.goto(reservationUrl(trip, date))
      await pageHeading(other)
      await other.locator(`[data-seat="${next}"]:visible`).click()
      await expect(other.locator(`[data-seat="${next}"]:visible`)).toHaveAttribute('data-state', 'selected')
      // the server's answer, not only the seat drawn as chosen: other holds it before this page tries
      await expect(other.getByTestId('hold-clock')).toBeVisible()
      await clearSpoken(page)
      await page.keyboard.press('Enter')
      const lost = literal(m(lang, 'seat.lockLost', { names: next }))
      await hears(page, new RegExp(`^alertdialog, ${literal(m(lang, 'dialog.errorTitle'))}, ${lost}, modal$`))
      const heard = await hears(page, `button, ${m(lang, 'common.ok')}`)
      // the dialog says it; the seat map's live region does not say it again
      expect(heard.filter((p) => p.startsWith('polite: ') && new RegExp(lost).test(p))).toEqual([])
      await clearSpoken(page)
      await page.keyboard.press('Escape')
      // back on the seat, which now says who has it
      await hears(page, new RegExp(`^button, ${seatWord} ${next}, .+, ${literal(m(lang, 'seatState.held'))}, disabled, not pressed$`))
      await other.context().close()
    })

    test('the hold warning is spoken two minutes before the hold runs out', async ({ page, request }) => {
      const { trip, date } = await tripFor(request, 20, 2 + index)
      // only the browser's clock moves: the live seat map, silent for that long, would reload the seats with the server's own hold times
      await withoutLiveSeatMap(page)
      await page.clock.install()
      await seatPage(page, reservationUrl(trip, date))
      await page.keyboard.press('Enter')
      await expect(page.getByTestId('hold-clock')).toBeVisible()
      await clearSpoken(page)
      await page.clock.fastForward('13:30')
      await hears(page, new RegExp(`^(polite|assertive): ${literal(m(lang, 'seatChoice.holdWarning'))}`))
    })

    test("the booking form's errors: each field says what is wrong as focus reaches it", async ({ page, context, request }) => {
      const { trip, date } = await tripFor(request, 21, index)
      await signInContext(context, request, await createPassenger(request))
      await seatPage(page, reservationUrl(trip, date))
      await page.keyboard.press('Enter')
      const name = page.getByLabel(m(lang, 'booking.passengerName'))
      await name.fill('')
      await page.getByLabel(m(lang, 'booking.passengerMobile')).fill('123')
      await clearSpoken(page)
      await page.getByRole('button', { name: m(lang, 'booking.book') }).click()
      // focus goes to the first field in error, which says its name, what is wrong, and that it is invalid
      await hears(page, `textbox, ${m(lang, 'booking.passengerName')}, ${m(lang, 'validation.fullNameRequired')}, invalid, required`)
      await clearSpoken(page)
      await page.keyboard.press('Tab')
      await hears(page, `textbox, ${m(lang, 'booking.passengerMobile')}, 123, ${m(lang, 'validation.mobileInvalid')}, invalid, required`)
    })

    test('the city search says when no city matches what was typed', async ({ page }) => {
      await serveScreenReader(page)
      await page.goto('/')
      await pageHeading(page)
      await expect(page.locator('input[role="combobox"]')).toHaveCount(2)
      await startScreenReader(page)
      const from = page.getByRole('combobox', { name: m(lang, 'searchForm.from') })
      await from.focus()
      await hears(page, new RegExp(`^combobox, ${literal(m(lang, 'searchForm.from'))}`))
      await page.keyboard.type('Zzyzx')
      await hears(page, `polite: ${m(lang, 'searchForm.noMatch')}`)
    })

    test('the code entry: each box says which digit of six it is; a wrong code is announced', async ({ page }) => {
      await serveScreenReader(page)
      await page.goto('/login')
      await pageHeading(page)
      const mobile = randomMobile()
      await fillSignUp(page, lang, mobile)
      await startScreenReader(page)
      await page.getByRole('button', { name: m(lang, 'login.signup') }).click()
      await hears(page, `heading, ${m(lang, 'login.verifyTitle')}, level 2`)
      await clearSpoken(page)
      await page.getByRole('textbox', { name: m(lang, 'login.codeDigit', { index: 1, count: 6 }) }).focus()
      await hears(page, `textbox, ${m(lang, 'login.codeDigit', { index: 1, count: 6 })}`)
      await page.keyboard.type('000000')
      const said = await hears(page, `assertive: ${m(lang, 'error.INVALID_OTP_PROVIDED')}`)
      for (let i = 2; i <= 6; i++) expect(said).toContain(`textbox, ${m(lang, 'login.codeDigit', { index: i, count: 6 })}`)
      // the digits are the language's own
      expect(said.join(' ')).not.toMatch(lang === 'bn' ? /[0-9]/ : /[০-৯]/)
    })
  })
}
