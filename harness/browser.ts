/**
 * Where the Debian Chromium lives and how it is started: test tools may not
 * download browsers here, so Playwright always launches this one.
 */
import fs from 'node:fs'

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
]

/** The Chromium executable: CHROME_PATH when set (the only one looked at: CHROME_PATH=none hides Chromium), else Debian's. */
export function findChromium(): string | null {
  const candidates = process.env.CHROME_PATH ? [process.env.CHROME_PATH] : ['/usr/bin/chromium', '/usr/bin/chromium-browser']
  return candidates.find((p) => fs.existsSync(p)) ?? null
}

/** Why the browser tests cannot run on this machine, or null when they can. */
export function chromiumMissing(): string | null {
  if (findChromium()) return null
  const where = process.env.CHROME_PATH ? `no Chromium at CHROME_PATH=${process.env.CHROME_PATH}` : 'no Chromium found'
  return (
    `${where}: install Debian's package (\`apt-get install chromium\`) or set CHROME_PATH to a Chromium/Chrome executable ` +
    '(never `npx playwright install`: browsers cannot be downloaded here)'
  )
}

/** The Chromium executable, or a clear error naming how to install one. */
export function chromiumPath(): string {
  const found = findChromium()
  if (!found) throw new Error(`Browser tests: ${chromiumMissing()}.`)
  return found
}
