/**
 * The real server on a fresh embedded database and a copy of dist/ of its own,
 * for specs that change the app's files (a new deploy) or serve it from another
 * origin; spawned like the server tests do (harness/spawn-server.ts).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort, startServer } from '../harness/spawn-server.ts'

const root = path.resolve(import.meta.dirname, '..')

/** A running server and the dist/ copy it serves. */
export interface OwnServer {
  url: string
  port: number
  /** The copy of dist/ it serves (the server reads its files at each request). */
  dist: string
  stop(): Promise<void>
}

/** A copy of the built app in a new temp folder. */
export function copyDist(): string {
  const source = path.join(root, process.env.DIST_DIR ?? 'dist')
  if (!fs.existsSync(path.join(source, 'index.html'))) throw new Error(`no built app in ${source}: run node build.mjs first`)
  const dist = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-dist-')), 'dist')
  fs.cpSync(source, dist, { recursive: true })
  return dist
}

/** Starts `server/main.ts` (test mode, demo data) on a free port; `env` adds settings (CORS_ORIGINS, APP_URL…). */
export async function startOwnServer(env: Record<string, string> = {}, opts: { port?: number } = {}): Promise<OwnServer> {
  const dist = copyDist()
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-data-'))
  const port = opts.port ?? (await freePort())
  const url = `http://127.0.0.1:${port}`
  const server = await startServer({ NODE_ENV: 'test', DATA_DIR: data, DIST_DIR: dist, PUBLIC_URL: url, ...env }, { port, timeoutMs: 120_000 })
  return {
    url,
    port,
    dist,
    async stop() {
      await server.kill()
      fs.rmSync(path.dirname(dist), { recursive: true, force: true })
      fs.rmSync(data, { recursive: true, force: true })
    },
  }
}
