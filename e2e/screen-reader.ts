/**
 * A screen reader in the page for the browser tests: @guidepup/virtual-screen-reader (its browser
 * build), started on the page's body. It follows the focus as the test moves it with the real keyboard
 * and logs what it would say: each control it lands on (role, name, state, description) and what live
 * regions announce ("polite: …", "assertive: …"). Served from the page's own origin, so the app's
 * content security policy (scripts from 'self') lets it in.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { Page } from '@playwright/test'

const require = createRequire(import.meta.url)
const bundle = path.join(path.dirname(require.resolve('@guidepup/virtual-screen-reader/package.json')), 'lib/esm/index.browser.js')

const START = `import { virtual } from './virtual-screen-reader.js'
await virtual.start({ container: document.body })
window.__screenReader = virtual
document.documentElement.dataset.screenReader = 'on'
`

interface VirtualInPage {
  spokenPhraseLog(): Promise<string[]>
  clearSpokenPhraseLog(): Promise<void>
}

/** Serves the screen reader to `page` under /__screen-reader/ (call before the page loads). */
export async function serveScreenReader(page: Page): Promise<void> {
  const code = fs.readFileSync(bundle, 'utf8')
  await page.route('**/__screen-reader/virtual-screen-reader.js', (route) => route.fulfill({ contentType: 'text/javascript', body: code }))
  await page.route('**/__screen-reader/start.js', (route) => route.fulfill({ contentType: 'text/javascript', body: START }))
}

/** Starts the screen reader on the page as it is now (after `serveScreenReader`). */
export async function startScreenReader(page: Page): Promise<void> {
  await page.addScriptTag({ url: '/__screen-reader/start.js', type: 'module' })
  await page.locator('html[data-screen-reader="on"]').waitFor({ state: 'attached' })
}

/** Everything said since the start (or the last `clearSpoken`). */
export function spoken(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __screenReader: VirtualInPage }).__screenReader.spokenPhraseLog())
}

/** Forgets what was said so far. */
export async function clearSpoken(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { __screenReader: VirtualInPage }).__screenReader.clearSpokenPhraseLog())
}
