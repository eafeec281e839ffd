/**
 * Where the Debian Chromium lives and how it is started: test tools may not
 * download browsers here, so Playwright always launches this one.
 */
import fs from 'node:fs';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
];

/** The Chromium executable (CHROME_PATH or /usr/bin/chromium), or a clear error naming how to install one. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) {
    throw new Error(
      'No Chromium found for the browser tests. Install Debian\'s package (`sudo apt-get install chromium`) ' +
        'or set CHROME_PATH to a Chromium/Chrome executable. (Never `npx playwright install`: browsers cannot be downloaded here.)',
    );
  }
  return found;
}
