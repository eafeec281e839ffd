/**
 * Issue 5: sign-up, login, logout, forgotten password, the 401 reset, restricted
 * /profile, profile edit, password change and balance top-up, against the real
 * server. Each test uses its own random mobile no. (tests share one server) and
 * checks axe on every step.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { expectNoAxeViolations, pageHeading, switchLanguage } from './helpers.ts'

const PASSWORD = 'Secret@123'

// long journeys with an axe run on every step
test.describe.configure({ timeout: 120_000 })

/** A fresh mobile no.: 0171 and 7 random digits. */
function randomMobile(): string {
  return '0171' + String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')
}

/** The newest one-time code the dev outbox holds for `mobile` (optionally one whose body mentions `purpose`). */
async function latestCode(request: APIRequestContext, mobile: string, purpose?: RegExp): Promise<string> {
  let code: string | undefined
  await expect
    .poll(async () => {
      const res = await request.get('/dev/outbox')
      const { data } = (await res.json()) as { data: { to: string; code: string | null; body: string }[] }
      code = data.find((m) => m.to === mobile && m.code && (!purpose || purpose.test(m.body)))?.code ?? undefined
      return code
    })
    .toBeTruthy()
  return code!
}

/** Registers and verifies a passenger through the API (for tests that are not about sign-up). */
async function createPassenger(request: APIRequestContext, mobile = randomMobile(), password = PASSWORD): Promise<string> {
  const reg = await request.post('/api/register', {
    data: { mobile, fullName: 'Karim Rahman', email: `k${mobile}@example.com`, city: 'Dhaka', password },
  })
  expect(reg.ok(), await reg.text()).toBeTruthy()
  const code = await latestCode(request, mobile, /verification/)
  const { registrationToken } = (await reg.json()).data
  const ok = await request.post('/api/verifyMobileVerificationCode', { data: { mobile, code, registrationToken } })
  expect(ok.ok(), await ok.text()).toBeTruthy()
  return mobile
}

const header = (page: Page) => page.getByRole('banner')

/** LOGOUT from the header, by keyboard (home-page announcement toasts may sit over the button). */
async function logout(page: Page): Promise<void> {
  const button = header(page).getByRole('button', { name: 'LOGOUT' })
  const login = header(page).getByRole('link', { name: 'LOGIN' })
  // right after a navigation the new page's h1 may still take the focus: press again then
  await expect(async () => {
    if (await button.isVisible()) {
      await button.focus()
      await page.keyboard.press('Enter')
    }
    await expect(login).toBeVisible({ timeout: 2000 })
  }).toPass({ timeout: 15_000 })
}

/** Fills the mobile no. and continues. */
async function enterMobile(page: Page, mobile: string): Promise<void> {
  await page.getByLabel('Mobile no.').fill(mobile)
  await page.getByRole('button', { name: 'Continue' }).click()
}

/** Logs in from /login with mobile and password. */
async function login(page: Page, mobile: string, password = PASSWORD, opts: { stay?: boolean } = {}): Promise<void> {
  await enterMobile(page, mobile)
  await page.getByLabel('Password', { exact: true }).fill(password)
  if (opts.stay) await page.getByLabel('Stay signed in').check()
  await page.getByRole('button', { name: 'LOGIN', exact: true }).last().click()
}

/** Types a 6-digit code into the PIN boxes (the first box takes it all, like an SMS autofill). */
async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Digit 1 of 6' }).click()
  await page.keyboard.type(code)
}

test.describe('sign-up', () => {
  test('a new number signs up with the SMS code; every validation message is shown beside its field', async ({ page, request }) => {
    const mobile = randomMobile()
    await page.goto('/login')
    await expect(await pageHeading(page)).toHaveText('Login to your account')
    await expectNoAxeViolations(page, 'login: mobile')

    // mobile no. messages
    await page.getByRole('button', { name: 'Continue' }).click()
    const mobileField = page.getByLabel('Mobile no.')
    await expect(mobileField).toHaveAccessibleDescription(/Mobile no\. is required/)
    await expect(mobileField).toBeFocused()
    await mobileField.fill('0121234567')
    await mobileField.blur()
    await expect(page.getByText('Please enter a valid mobile no.')).toBeVisible()
    await expectNoAxeViolations(page, 'login: mobile errors')
    await enterMobile(page, mobile)

    // an unknown number continues to SIGNUP
    await expect(page.getByRole('heading', { level: 2, name: 'Create your account' })).toBeFocused()
    await expect(page.getByLabel('Mobile no.')).toHaveValue(mobile)
    await page.getByRole('button', { name: 'SIGNUP' }).click()
    for (const [label, message] of [
      ['Full name', 'Full name is required'],
      ['Email', 'Email is required'],
      ['City', 'City is required'],
      ['Password', 'Password is required'],
      ['Confirm password', 'Confirm password is required'],
    ] as const) {
      await expect(page.getByLabel(label, { exact: true })).toHaveAccessibleDescription(new RegExp(message))
    }
    await expect(page.getByLabel('Full name')).toBeFocused()
    await expectNoAxeViolations(page, 'sign-up: required messages')

    await page.getByLabel('Email').fill('rahim@example')
    await page.getByLabel('Email').blur()
    await expect(page.getByText('Please enter a valid email')).toBeVisible()

    // the password rules still missing are listed while typing
    const password = page.getByLabel('Password', { exact: true })
    await password.fill('a')
    for (const m of ['Password must be 6 to 50 characters', 'Must add one UPPERCASE letter', 'Must add one number', 'Must add one special symbol']) {
      await expect(page.getByText(m)).toBeVisible()
    }
    await expect(page.getByText('Must add one lowercase letter')).toHaveCount(0)
    await password.fill('A')
    await expect(page.getByText('Must add one lowercase letter')).toBeVisible()
    await password.fill('Abc 1!x')
    await expect(page.getByText('White space not allowed')).toBeVisible()
    await expect(page.getByText('Must add one number')).toHaveCount(0)
    await password.fill(PASSWORD)
    await expect(password).not.toHaveAttribute('aria-invalid', 'true')
    await page.getByLabel('Confirm password').fill(PASSWORD + 'x')
    await page.getByLabel('Confirm password').blur()
    await expect(page.getByText("Confirm password doesn't match")).toBeVisible()
    await expectNoAxeViolations(page, 'sign-up: format messages')

    await page.getByLabel('Full name').fill('Rahim Uddin')
    await page.getByLabel('Email').fill('rahim@example.com')
    await page.getByLabel('City').fill('Sylhet')
    await page.getByLabel('Confirm password').fill(PASSWORD)
    await page.getByRole('button', { name: 'SIGNUP' }).click()

    // the SMS code
    await expect(page.getByRole('heading', { level: 2, name: 'Verify your mobile no.' })).toBeFocused()
    await expect(page.getByText(`We sent a 6-digit verification code by SMS to ${mobile}.`)).toBeVisible()
    const boxes = page.getByRole('group', { name: 'Verification code' }).getByRole('textbox')
    await expect(boxes).toHaveCount(6)
    await expect(boxes.first()).toHaveAttribute('autocomplete', 'one-time-code')
    await expect(boxes.first()).toHaveAttribute('inputmode', 'numeric')
    await expect(page.getByRole('button', { name: 'Resend Code' })).toBeDisabled()
    await expect(page.getByText(/You can ask for a new code in [23]:\d\d\./)).toBeVisible()
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page.getByText('Verification code is required')).toBeVisible()
    await expectNoAxeViolations(page, 'verify: code step')

    const code = await latestCode(request, mobile, /verification/)
    const wrong = code === '000000' ? '111111' : '000000'
    await typeCode(page, wrong)
    await expect(page.getByRole('alert').filter({ hasText: 'Wrong OTP' })).toBeVisible()
    await expectNoAxeViolations(page, 'verify: wrong code')

    await boxes.first().click()
    for (let i = 0; i < 6; i++) await page.keyboard.press('Backspace')
    await boxes.first().focus()
    await page.keyboard.type(code)
    await expect(page).toHaveURL(/\/$/)
    await expect(header(page).getByRole('button', { name: 'LOGOUT' })).toBeVisible()
    expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeTruthy()
    expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('passenger')))!).fullName).toBe('Rahim Uddin')
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
    await expectNoAxeViolations(page, 'home after sign-up')
  })

  test('Resend Code is disabled for 180 s with a visible countdown', async ({ page }) => {
    await page.clock.install()
    const mobile = randomMobile()
    await page.goto('/login')
    await enterMobile(page, mobile)
    await page.getByLabel('Full name').fill('Nasrin Akter')
    await page.getByLabel('Email').fill('nasrin@example.com')
    await page.getByLabel('City').fill('Khulna')
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByLabel('Confirm password').fill(PASSWORD)
    // from here the browser clock moves only when the test says so
    await page.clock.pauseAt(Date.now() + 60_000)
    await page.getByRole('button', { name: 'SIGNUP' }).click()

    const resend = page.getByRole('button', { name: 'Resend Code' })
    await expect(resend).toBeDisabled()
    await expect(page.getByText('You can ask for a new code in 3:00.')).toBeVisible()
    await expect(resend).toHaveAccessibleDescription('You can ask for a new code in 3:00.')
    await page.clock.runFor(61_000)
    await expect(page.getByText('You can ask for a new code in 1:59.')).toBeVisible()
    await page.clock.runFor(118_000)
    await expect(page.getByText('You can ask for a new code in 0:01.')).toBeVisible()
    await expect(resend).toBeDisabled()
    await page.clock.runFor(1_000)
    await expect(resend).toBeEnabled()
    await expect(page.getByText(/You can ask for a new code/)).toHaveCount(0)
    // axe waits on timers of its own
    await page.clock.resume()
    await expectNoAxeViolations(page, 'verify: resend enabled')
    // only the browser clock moved: the server still refuses, with its catalogue message
    await resend.click()
    await expect(page.getByRole('alert').filter({ hasText: 'OTP already sent. Check SMS and email.' })).toBeVisible()
  })
})

test.describe('login and logout', () => {
  test('login errors, login, LOGOUT, and Stay signed in surviving a new tab — keyboard only', async ({ page, request, context }) => {
    const mobile = await createPassenger(request)
    await page.goto('/login')
    await pageHeading(page)
    // keyboard only: the mobile field is the first field of the page's form
    await page.getByLabel('Mobile no.').focus()
    await page.keyboard.type(mobile)
    await page.keyboard.press('Enter')
    const password = page.getByLabel('Password', { exact: true })
    await expect(password).toBeFocused()
    await expect(page.getByText(`Enter the password for ${mobile}.`)).toBeVisible()
    await page.keyboard.press('Enter')
    await expect(password).toHaveAccessibleDescription(/Password is required/)
    await expectNoAxeViolations(page, 'login: password required')
    await page.keyboard.type('Wrong@123')
    await page.keyboard.press('Enter')
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid Credentials' })).toBeVisible()
    await expectNoAxeViolations(page, 'login: bad credentials')

    await password.fill('')
    await page.keyboard.type(PASSWORD)
    await page.keyboard.press('Tab')
    // the show/hide button, then Stay signed in
    await expect(page.getByRole('button', { name: 'Show password' })).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(page.getByLabel('Stay signed in')).toBeFocused()
    await page.keyboard.press('Space')
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/$/)
    await expect(header(page).getByRole('button', { name: 'LOGOUT' })).toBeVisible()
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy()

    // Stay signed in: a new tab of the same browser is signed in
    const tab = await context.newPage()
    await tab.goto('/profile')
    await expect(tab).toHaveURL(/\/profile$/)
    await expect(await pageHeading(tab)).toHaveText('My profile')
    await tab.close()

    // LOGOUT clears the session everywhere
    await logout(page)
    expect(
      await page.evaluate(() => [
        sessionStorage.getItem('token'),
        sessionStorage.getItem('passenger'),
        sessionStorage.getItem('company'),
        localStorage.getItem('token'),
      ]),
    ).toEqual([null, null, null, null])
    await expectNoAxeViolations(page, 'after logout')

    // without Stay signed in the session is kept for this tab only
    await page.goto('/login')
    await login(page, mobile)
    await expect(page).toHaveURL(/\/$/)
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
    const tab2 = await context.newPage()
    await tab2.goto('/profile')
    await expect(tab2).toHaveURL(/\/login$/)
  })

  test('a visitor opening /profile is sent to /login and brought back after login', async ({ page, request }) => {
    const mobile = await createPassenger(request)
    await page.goto('/profile')
    await expect(page).toHaveURL(/\/login$/)
    await login(page, mobile)
    await expect(page).toHaveURL(/\/profile$/)
    await expect(await pageHeading(page)).toHaveText('My profile')
  })

  test('an expired token mid-session (401) shows INVALID_SESSION and returns to the same page after login', async ({ page, request }) => {
    const mobile = await createPassenger(request)
    await page.goto('/login')
    await login(page, mobile)
    await expect(page).toHaveURL(/\/$/)
    await page.goto('/profile')
    await expect(page.getByLabel('Full name')).toHaveValue('Karim Rahman')

    // the server no longer knows the stored token: the page's next calls answer 401
    await page.evaluate(() => sessionStorage.setItem('token', 'expired-token'))
    await page.reload()
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByText('Invalid session. Please login again.')).toBeVisible()
    expect(
      await page.evaluate(() => [sessionStorage.getItem('token'), sessionStorage.getItem('passenger'), sessionStorage.getItem('redirectUrl')]),
    ).toEqual([null, null, '/profile'])
    await expect(header(page).getByRole('link', { name: 'LOGIN' })).toBeVisible()
    await expectNoAxeViolations(page, 'login: invalid session')
    await login(page, mobile)
    await expect(page).toHaveURL(/\/profile$/)
    await expect(await pageHeading(page)).toHaveText('My profile')
  })
})

test('forgotten password: OTP, wrong OTP, new password, then logged in', async ({ page, request }) => {
  const mobile = await createPassenger(request)
  await page.goto('/login')
  await enterMobile(page, mobile)
  await page.getByRole('button', { name: 'Forgot your password' }).click()
  await expect(page.getByRole('heading', { level: 2, name: 'Reset your password' })).toBeFocused()
  await expect(page.getByText(`We sent a 6-digit OTP by SMS to ${mobile}.`)).toBeVisible()
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByText('OTP is required')).toBeVisible()
  await expectNoAxeViolations(page, 'forgot: OTP step')

  const otp = await latestCode(request, mobile, /password reset/)
  await typeCode(page, otp === '000000' ? '111111' : '000000')
  await expect(page.getByRole('alert').filter({ hasText: 'Wrong OTP' })).toBeVisible()
  await page.getByRole('textbox', { name: 'Digit 1 of 6' }).click()
  for (let i = 0; i < 6; i++) await page.keyboard.press('Backspace')
  await page.getByRole('textbox', { name: 'Digit 1 of 6' }).focus()
  await page.keyboard.type(otp)

  await expect(page.getByRole('heading', { level: 2, name: 'Set a new password' })).toBeFocused()
  const newPassword = page.getByLabel('New password')
  await newPassword.fill('short')
  await expect(page.getByText('Must add one UPPERCASE letter')).toBeVisible()
  await expect(page.getByText('Must add one number')).toBeVisible()
  await expectNoAxeViolations(page, 'forgot: new password rules')
  await newPassword.fill('Fresh#2026')
  await page.getByLabel('Confirm password').fill('Fresh#2026')
  await page.getByRole('button', { name: 'Save and login' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(header(page).getByRole('button', { name: 'LOGOUT' })).toBeVisible()

  await logout(page)
  await page.goto('/login')
  await login(page, mobile, PASSWORD)
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid Credentials' })).toBeVisible()
  await page.getByLabel('Password', { exact: true }).fill('Fresh#2026')
  await page.getByRole('button', { name: 'LOGIN', exact: true }).last().click()
  await expect(page).toHaveURL(/\/$/)
})

test('after 10 wrong passwords the login form says to wait or use Forgot your password, which still signs in by SMS', async ({ page, request }) => {
  const mobile = await createPassenger(request)
  for (let i = 0; i < 10; i++) {
    const r = await request.post('/api/checkPassenger', { data: { mobile, password: `Wrong@${i}x` } })
    expect(r.status()).toBe(401)
  }
  await page.goto('/login')
  await login(page, mobile)
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: /^Too many wrong passwords for this mobile no\. Try again in 1[45] minutes, or choose Forgot your password/ }),
  ).toBeVisible()
  await expectNoAxeViolations(page, 'login: too many wrong passwords')
  await page.getByRole('button', { name: 'Forgot your password' }).click()
  await expect(page.getByRole('heading', { level: 2, name: 'Reset your password' })).toBeFocused()
  await typeCode(page, await latestCode(request, mobile, /password reset/))
  await expect(page.getByRole('heading', { level: 2, name: 'Set a new password' })).toBeFocused()
})

test.describe('profile', () => {
  test.beforeEach(async ({ page, request }) => {
    const mobile = await createPassenger(request)
    await page.goto('/login')
    await login(page, mobile)
    await expect(page).toHaveURL(/\/$/)
    await page.goto('/profile')
    await expect(await pageHeading(page)).toHaveText('My profile')
  })

  test('edit the profile: mobile shown, not editable; messages beside fields; saved', async ({ page }) => {
    const details = page.getByRole('region', { name: 'Profile details' })
    await expect(details.getByLabel('Full name')).toHaveValue('Karim Rahman')
    await expect(details.getByText(/^0171\d{7}$/)).toBeVisible()
    await expect(details.getByRole('textbox', { name: /Mobile/ })).toHaveCount(0)
    await expectNoAxeViolations(page, 'profile')

    await details.getByLabel('Full name').fill('')
    await details.getByLabel('Email').fill('karim@')
    await details.getByLabel('City').fill('')
    await details.getByRole('button', { name: 'Save changes' }).click()
    await expect(details.getByLabel('Full name')).toHaveAccessibleDescription(/Full name is required/)
    await expect(details.getByLabel('Email')).toHaveAccessibleDescription(/Please enter a valid email/)
    await expect(details.getByLabel('City')).toHaveAccessibleDescription(/City is required/)
    await details.getByLabel('Email').fill('')
    await expect(details.getByText('Email is required')).toBeVisible()
    await expectNoAxeViolations(page, 'profile: messages')

    await details.getByLabel('Full name').fill('Karim Hossain')
    await details.getByLabel('Email').fill('karim.h@example.com')
    await details.getByLabel('City').fill('Rajshahi')
    await details.getByRole('button', { name: 'Save changes' }).click()
    await expect(details.getByRole('status').filter({ hasText: 'Your profile has been updated.' })).toBeVisible()
    await page.reload()
    await expect(page.getByRole('region', { name: 'Profile details' }).getByLabel('City')).toHaveValue('Rajshahi')
  })

  test('change the password: required messages, wrong current password, then changed', async ({ page }) => {
    const box = page.getByRole('region', { name: 'Change password' })
    await box.getByRole('button', { name: 'Change password' }).click()
    await expect(box.getByLabel('Current password')).toHaveAccessibleDescription(/Current password is required/)
    await expect(box.getByLabel('New password')).toHaveAccessibleDescription(/Password is required/)
    await expect(box.getByLabel('Confirm password')).toHaveAccessibleDescription(/Confirm password is required/)
    await box.getByLabel('Current password').fill('Nope@1234')
    await box.getByLabel('New password').fill('Better#2026')
    await box.getByLabel('Confirm password').fill('Better#2026')
    await box.getByRole('button', { name: 'Change password' }).click()
    await expect(box.getByRole('alert').filter({ hasText: 'Invalid Credentials' })).toBeVisible()
    await expect(page).toHaveURL(/\/profile$/)
    // where the passenger goes next: the field (and its Show password button, a Tab stop) scrolled clear of the sticky header
    await box.getByLabel('Current password').focus()
    await expectNoAxeViolations(page, 'password change: wrong current')
    await box.getByLabel('Current password').fill(PASSWORD)
    await box.getByRole('button', { name: 'Change password' }).click()
    await expect(box.getByRole('status').filter({ hasText: 'Your password has been changed.' })).toBeVisible()
    await expect(box.getByLabel('Current password')).toHaveValue('')
  })

  test('top up the balance through the sandbox card gateway; transactions show it', async ({ page }) => {
    const account = page.getByRole('region', { name: 'Account' })
    await expect(account.getByText('0 Tk', { exact: true })).toBeVisible()
    await expect(account.getByLabel('From')).toHaveValue(/^\d{4}-\d{2}-01$/)
    await account.getByRole('button', { name: 'Top up', exact: true }).click()
    await expect(account.getByLabel('Amount (Tk)', { exact: true })).toHaveAccessibleDescription(/Amount is required/)
    await expect(account.getByLabel('Confirm amount (Tk)')).toHaveAccessibleDescription(/Amount confirmation is required/)
    await account.getByLabel('Amount (Tk)', { exact: true }).fill('5')
    await account.getByLabel('Confirm amount (Tk)').fill('50')
    await expect(account.getByText('Enter a whole amount from 10 to 100,000 Tk')).toBeVisible()
    await expect(account.getByText("Amount confirmation doesn't match")).toBeVisible()
    await expectNoAxeViolations(page, 'top-up: messages')

    // declined first: the balance stays
    await account.getByLabel('Amount (Tk)', { exact: true }).fill('700')
    await account.getByLabel('Confirm amount (Tk)').fill('700')
    await account.getByRole('button', { name: 'Top up', exact: true }).click()
    await expect(page).toHaveURL(/\/sandbox\/gateway\//)
    await page.getByRole('button', { name: 'Decline payment' }).click()
    await expect(page).toHaveURL(/\/profile$/)
    await expect(page.getByRole('alertdialog').or(page.getByRole('dialog'))).toContainText(
      'The payment was not completed. Your balance has not changed.',
    )
    await page.getByRole('button', { name: 'OK' }).click()

    await page.getByRole('region', { name: 'Account' }).getByLabel('Amount (Tk)', { exact: true }).fill('1500')
    await page.getByRole('region', { name: 'Account' }).getByLabel('Confirm amount (Tk)').fill('1500')
    await page.getByRole('region', { name: 'Account' }).getByRole('button', { name: 'Top up', exact: true }).click()
    await page.getByRole('button', { name: 'Approve payment' }).click()
    await expect(page).toHaveURL(/\/profile$/)
    await expect(page.getByRole('dialog')).toContainText('1,500 Tk has been added. Your balance is now 1,500 Tk.')
    await expectNoAxeViolations(page, 'top-up: success dialog')
    await page.getByRole('button', { name: 'OK' }).click()
    const after = page.getByRole('region', { name: 'Account' })
    await expect(after.getByText('1,500 Tk', { exact: true }).first()).toBeVisible()
    const table = after.getByRole('table')
    await expect(table.getByRole('row').filter({ hasText: 'Top-up' })).toHaveCount(1)
    await expect(table.getByRole('row').filter({ hasText: 'Top-up' })).toContainText('+1,500 Tk')
    // a reload does not credit again
    await page.reload()
    await expect(page.getByRole('region', { name: 'Account' }).getByRole('table').getByRole('row').filter({ hasText: 'Top-up' })).toHaveCount(1)
    await expectNoAxeViolations(page, 'account with transactions')
  })

  test('my tickets: an empty list says so', async ({ page }) => {
    await expect(page.getByRole('region', { name: 'My tickets' }).getByText('You have no tickets yet.')).toBeVisible()
  })
})

test('the login flow in Bengali on a phone, with Bengali digits accepted in the mobile no.', async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 800 })
  const mobile = await createPassenger(request)
  await page.goto('/login')
  await pageHeading(page)
  await switchLanguage(page, 'bn')
  await expect(await pageHeading(page)).toHaveText('আপনার অ্যাকাউন্টে লগইন করুন')
  await page.getByRole('button', { name: 'এগিয়ে যান' }).click()
  await expect(page.getByText('মোবাইল নম্বর আবশ্যক')).toBeVisible()
  await expectNoAxeViolations(page, 'bn login: required')
  const bnDigits = mobile.replace(/\d/g, (d) => '০১২৩৪৫৬৭৮৯'[Number(d)]!)
  await page.getByLabel('মোবাইল নম্বর').fill(bnDigits)
  await expect(page.getByLabel('মোবাইল নম্বর')).toHaveValue(mobile)
  await page.getByRole('button', { name: 'এগিয়ে যান' }).click()
  await page.getByLabel('পাসওয়ার্ড', { exact: true }).fill('Wrong@123')
  await page.getByRole('button', { name: 'লগইন', exact: true }).last().click()
  await expect(page.getByRole('alert').filter({ hasText: 'ভুল লগইন তথ্য' })).toBeVisible()
  await expectNoAxeViolations(page, 'bn login: bad credentials')
  await page.getByLabel('পাসওয়ার্ড', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'লগইন', exact: true }).last().click()
  await expect(page).toHaveURL(/\/$/)
  await page.goto('/profile')
  await expect(await pageHeading(page)).toHaveText('আমার প্রোফাইল')
  await expect(page.getByRole('region', { name: 'অ্যাকাউন্ট' }).getByText('০ টাকা', { exact: true })).toBeVisible()
  await expectNoAxeViolations(page, 'bn profile')
})
