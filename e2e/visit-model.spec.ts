/**
 * src/parts/use-visit-model.ts in React's development build under StrictMode, as `npm run dev` runs the app:
 * StrictMode mounts a page, unmounts it and mounts it again at once; the model the page shows stays alive (its
 * effects run) and is disposed when the page goes.
 */
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { build } from 'esbuild'

const root = path.resolve(import.meta.dirname, '..')

const entry = `
import { createModel, effect, signal } from '@preact/signals-core'
import { StrictMode, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { useVisitModel } from './src/parts/use-visit-model.ts'

const log = []
window.visitLog = log
const made = { count: 0 }
const Probe = createModel(() => {
  const id = signal(++made.count)
  effect(() => {
    log.push('live ' + id.peek())
    return () => log.push('disposed ' + id.peek())
  })
  return { id }
})

function Page() {
  const model = useVisitModel(() => new Probe())
  return <p id="shown">{model.id.value}</p>
}

function App() {
  const [visiting, setVisiting] = useState(true)
  return (
    <>
      {visiting ? <Page /> : null}
      <button type="button" onClick={() => setVisiting(false)}>leave</button>
    </>
  )
}

createRoot(document.getElementById('root')).render(<StrictMode><App /></StrictMode>)
`

test('under StrictMode the shown model lives while the page does and is disposed when it goes', async ({ page }) => {
  const out = await build({
    absWorkingDir: root,
    stdin: { contents: entry, resolveDir: root, sourcefile: 'visit-model-probe.tsx', loader: 'tsx' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    // React's development build: StrictMode's extra unmount and mount happen only there
    define: { 'process.env.NODE_ENV': '"development"' },
    write: false,
    logLevel: 'error',
  })
  await page.setContent('<!doctype html><html lang="en"><body><div id="root"></div></body></html>')
  await page.addScriptTag({ type: 'module', content: out.outputFiles[0]!.text })
  const shown = await page.locator('#shown').textContent()
  const log = () => page.evaluate(() => (window as unknown as { visitLog: string[] }).visitLog)
  // a later turn of the event loop: StrictMode's extra unmount and mount are over
  await page.evaluate(() => new Promise((r) => setTimeout(r, 0)))
  expect(await log()).toContain(`live ${shown}`)
  expect(await log()).not.toContain(`disposed ${shown}`)
  await page.getByRole('button', { name: 'leave' }).click()
  await expect.poll(log).toContain(`disposed ${shown}`)
})
