/**
 * Issue 30 item 1, sale hours, on the real server: the operator's network file (imported with
 * `npm run import`) puts Dhaka–Sylhet trips on sale at 08:00 two days before the travel date.
 * Before that hour the results say "On sale from …" (en and bn) and the seat map shows the seats
 * read-only, with the reason as the grids' description; the server started again with its clock
 * (TEST_NOW) past the hour lets the same seat be held. The server runs on a database of its own,
 * on E2E_PORT + 2, and is restarted between the two.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, type Page, test } from '@playwright/test'
import { formatWeekdayDate } from '../contract/weekday-date.ts'
import { type ServerProcess, startServer } from '../harness/spawn-server.ts'
import { formatTime } from '../src/lib/dates.ts'
import { copyDist } from './own-server.ts'
import { dhakaDate, expectNoAxeViolations, type Lang, m, pageHeading, switchLanguage } from './helpers.ts'

const root = path.resolve(import.meta.dirname, '..')
const port = Number(process.env.E2E_PORT ?? 8790) + 2
const url = `http://127.0.0.1:${port}`
/** The travel date: three days ahead, so its sale (08:00 two days before) is always ahead of the real clock. */
const date = dhakaDate(3)
const opensDay = dhakaDate(1)
const opens = `${opensDay}T08:00:00+06:00`
const coach = '111-DHK-SYL'

let data: string
let dist: string
let server: ServerProcess | null = null

test.describe.configure({ mode: 'serial', timeout: 240_000 })

/** Runs `npm run import` as the operator does, on the test's database. */
function runImport(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/commands/import-network.ts', file], {
      cwd: root,
      env: { ...process.env, DATA_DIR: data, DATABASE_URL: '', NODE_ENV: 'test', TEST_NOW: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`npm run import: exit ${code}\n${out}`))))
  })
}

/** Starts the server on the test's database; `now` (an ISO instant) starts its clock there. */
async function start(now?: string): Promise<void> {
  const clock: Record<string, string> = now
    ? {
        TEST_NOW: now,
        TEST_NOW_ANCHOR: String(Date.now()),
        NODE_OPTIONS: `--import=${pathToFileURL(path.join(root, 'scripts/test-now.mjs'))}`,
      }
    : { TEST_NOW: '' }
  server = await startServer(
    { NODE_ENV: 'test', DATA_DIR: data, DATABASE_URL: '', DIST_DIR: dist, PUBLIC_URL: url, ...clock },
    { port, timeoutMs: 180_000 },
  )
}

test.beforeAll(async () => {
  test.setTimeout(300_000)
  data = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-sale-hours-'))
  dist = copyDist()
  const net = JSON.parse(fs.readFileSync(path.join(root, 'data/demo-network.json'), 'utf8'))
  net.routes.find((r: { from: string; to: string }) => r.from === 'DHK' && r.to === 'SYL').saleOpens = { daysBefore: 2, at: '08:00' }
  const file = path.join(data, 'network.json')
  fs.writeFileSync(file, JSON.stringify(net))
  await runImport(file)
  await start()
})

test.afterAll(async () => {
  await server?.kill()
  fs.rmSync(data, { recursive: true, force: true })
  fs.rmSync(path.dirname(dist), { recursive: true, force: true })
})

const saleText = (lang: Lang, id: string) => m(lang, id, { time: formatTime(opens, lang), date: formatWeekdayDate(opens, lang) })

/** The result card of the test's coach. */
const card = (page: Page) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: new RegExp(coach) }) })

/** Seat-lock requests the page sends. */
function lockRequests(page: Page): string[] {
  const sent: string[] = []
  page.on('request', (r) => {
    if (r.url().endsWith('/api/reservation/seatLock')) sent.push(r.postData() ?? '')
  })
  return sent
}

/** Choose seats on the coach's card; answers the seat grid once it shows. */
async function chooseSeats(page: Page, lang: Lang) {
  await card(page)
    .getByRole('button', { name: m(lang, 'trips.chooseSeats') })
    .click()
  await pageHeading(page)
  const grid = page.getByRole('grid').first()
  await expect(grid).toBeVisible()
  return grid
}

/** The first available seat of the visible deck, pinned by its name (its state changes when chosen). */
async function firstAvailable(page: Page) {
  const grid = page.getByRole('grid').first()
  const name = await grid.locator('button[data-state="available"]').first().getAttribute('data-seat')
  return grid.locator(`button[data-seat="${name}"]`)
}

test('before the sale hour: the results say when it opens (en, bn), the seat map is read-only and sends no lock', async ({ page }) => {
  const sent = lockRequests(page)
  await page.goto(`${url}/search?from=DHK&to=SYL&date=${date}`)
  await pageHeading(page)
  await expect(card(page)).toContainText(saleText('en', 'trips.saleOpens'))
  await expect(card(page)).toContainText('On sale from 08:00 AM, ')
  await expectNoAxeViolations(page, 'results before the sale hour')

  await switchLanguage(page, 'bn')
  await expect(card(page)).toContainText(saleText('bn', 'trips.saleOpens'))
  await expect(card(page)).toContainText('টিকিট বিক্রি শুরু ')

  const grid = await chooseSeats(page, 'bn')
  await expect(page.locator('#sale-opens')).toHaveText(saleText('bn', 'seatChoice.saleOpens'))
  await expect(grid).toHaveAttribute('aria-readonly', 'true')
  await expect(grid).toHaveAccessibleDescription(saleText('bn', 'seatChoice.saleOpens'))
  await expectNoAxeViolations(page, 'read-only seat map (bn)')

  const seat = await firstAvailable(page)
  await seat.click()
  await seat.press('Enter')
  // whatever the click would start has started by the next frame's tasks
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))))
  await expect(seat).toHaveAttribute('aria-pressed', 'false')
  await expect(seat).toHaveAttribute('data-state', 'available')
  expect(sent).toEqual([])

  await switchLanguage(page, 'en')
  await expect(page.locator('#sale-opens')).toHaveText(saleText('en', 'seatChoice.saleOpens'))
})

test('from the sale hour (the server clock past it): the results and the seat map let the seat be held', async ({ page }) => {
  await server!.kill()
  server = null
  await start(`${opensDay}T08:01:00+06:00`)
  await page.goto(`${url}/search?from=DHK&to=SYL&date=${date}`)
  await pageHeading(page)
  await expect(card(page)).toBeVisible()
  await expect(card(page)).not.toContainText(m('en', 'trips.saleOpens').split(' {')[0]!)

  const grid = await chooseSeats(page, 'en')
  await expect(page.locator('#sale-opens')).toHaveCount(0)
  await expect(grid).not.toHaveAttribute('aria-readonly', 'true')
  const seat = await firstAvailable(page)
  const locked = page.waitForResponse((r) => r.url().endsWith('/api/reservation/seatLock'))
  await seat.click()
  const answer = await locked
  expect(answer.status()).toBe(200)
  await expect(seat).toHaveAttribute('aria-pressed', 'true')
})
