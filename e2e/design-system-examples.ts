/**
 * The design-system examples as a page of their own, the GOV.UK Frontend way:
 * every `design-system/<component>/examples/<name>.tsx` (found by globbing, so a new
 * component's examples are picked up without edits) is bundled with esbuild, styled
 * with the CSS Panda generates for the app, and rendered alone at
 * `/?example=<component>/<name>`. Served on 127.0.0.1 for the browser tests.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { test } from '@playwright/test'
import { build } from 'esbuild'

const root = path.resolve(import.meta.dirname, '..')

/** Every example as `<component>/<name>`, sorted. */
export function exampleNames(): string[] {
  const ds = path.join(root, 'design-system')
  return fs
    .readdirSync(ds, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(ds, d.name, 'examples')))
    .flatMap((d) =>
      fs
        .readdirSync(path.join(ds, d.name, 'examples'))
        .filter((f) => f.endsWith('.tsx'))
        .map((f) => `${d.name}/${f.slice(0, -'.tsx'.length)}`),
    )
    .sort()
}

/** The entry module: each example's default export under its name, the one the URL asks for rendered into #root. */
function entrySource(names: string[]): string {
  const imports = names.map((n, i) => `import E${i} from './design-system/${n.replace('/', '/examples/')}.tsx';`).join('\n')
  const table = names.map((n, i) => `  ${JSON.stringify(n)}: E${i},`).join('\n')
  return `${imports}
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
const examples = {
${table}
};
const name = new URLSearchParams(location.search).get('example') ?? '';
const Example = examples[name];
document.title = 'Design system example: ' + name;
document.querySelector('h1').textContent = 'Example: ' + name;
createRoot(document.getElementById('root')).render(Example ? createElement(Example) : createElement('p', null, 'No example called ' + name));
// two frames: React has committed and the browser has painted
requestAnimationFrame(() => requestAnimationFrame(() => document.documentElement.setAttribute('data-example-ready', Example ? 'yes' : 'missing')));
`
}

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Design system example</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="/styles.css">
    <script type="module" src="/examples.js"></script>
  </head>
  <body>
    <main>
      <h1></h1>
      <div id="root"></div>
    </main>
  </body>
</html>
`

/** Bundles the examples and Panda's CSS; answers the files to serve. */
async function buildFiles(names: string[]): Promise<Map<string, { type: string; body: string | Uint8Array }>> {
  const out = await build({
    absWorkingDir: root,
    stdin: { contents: entrySource(names), resolveDir: root, sourcefile: 'design-system-examples.tsx', loader: 'tsx' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    jsx: 'automatic',
    // React's development build: its warnings reach the console, which the tests watch
    define: { 'process.env.NODE_ENV': '"development"' },
    write: false,
    logLevel: 'error',
  })
  const cssFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ds-examples-')), 'styles.css')
  // the CSS the app gets: panda.config.ts includes design-system/**, examples too
  execFileSync(process.execPath, [path.join(root, 'node_modules/@pandacss/dev/bin.js'), 'cssgen', '--outfile', cssFile, '--silent'], {
    cwd: root,
    stdio: 'pipe',
  })
  const css = fs.readFileSync(cssFile, 'utf8')
  fs.rmSync(path.dirname(cssFile), { recursive: true, force: true })
  return new Map([
    ['/', { type: 'text/html; charset=utf-8', body: page }],
    ['/examples.js', { type: 'text/javascript; charset=utf-8', body: out.outputFiles[0]!.contents }],
    ['/styles.css', { type: 'text/css; charset=utf-8', body: css }],
  ])
}

/** Builds the examples page and serves it on a free 127.0.0.1 port until `close`. */
export async function serveExamples(): Promise<{ url: string; names: string[]; close(): Promise<void> }> {
  const names = exampleNames()
  const files = await buildFiles(names)
  const server = http.createServer((req, res) => {
    const file = files.get(new URL(req.url ?? '/', 'http://x').pathname)
    res.writeHead(file ? 200 : 404, { 'content-type': file?.type ?? 'text/plain', 'cache-control': 'no-store' })
    res.end(file?.body ?? 'not found')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    names,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Serves the examples page for the spec file that calls it (before its tests, closed after them); answers its address. */
export function examplesForThisFile(): () => string {
  let served: Awaited<ReturnType<typeof serveExamples>> | undefined
  test.beforeAll(async () => {
    test.setTimeout(120_000)
    served = await serveExamples()
  })
  test.afterAll(async () => {
    await served?.close()
  })
  return () => served!.url
}
