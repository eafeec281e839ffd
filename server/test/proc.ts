/**
 * Runs the real server (`server/main.ts`) as a child process for tests that need
 * separate processes: startup races, the data-folder lock, crash and restart.
 *
 *   const s = spawnServer({ DATA_DIR: dir });   // free 127.0.0.1 port chosen
 *   await s.ready;                              // resolves on the "Ready on" line
 *   await fetch(s.url + '/api/company');
 *   s.kill('SIGKILL'); await s.exited;          // exit code (or null) and output
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../../harness/spawn-server.ts'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export interface ServerProcess {
  port: number
  url: string
  pid: number
  /** Resolves with the ready line; rejects if the process exits first or after `timeoutMs`. */
  ready: Promise<string>
  exited: Promise<number | null>
  output(): string
  kill(signal?: NodeJS.Signals): void
}

/** Starts `server/main.ts` with `env` (PORT is chosen unless given). */
export async function spawnServer(env: Record<string, string>, timeoutMs = 120_000): Promise<ServerProcess> {
  const port = Number(env.PORT ?? (await freePort()))
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: repo,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'error',
      DATABASE_URL: '',
      HOST: '127.0.0.1',
      RATE_LIMIT_MAX: '1000000',
      AUTH_RATE_LIMIT_MAX: '1000000',
      HOLD_LIMIT_PER_ADDRESS: '1000000',
      HOLD_LIMIT_PER_ADDRESS_TOTAL: '1000000',
      SEAT_STREAMS_PER_ADDRESS: '1000000',
      UNPAID_SEATS_PER_PASSENGER: '1000000',
      SEATS_PER_PASSENGER_PER_DATE: '1000000',
      SMS_LIMIT_PER_ADDRESS: '1000000',
      SMS_HOURLY_BUDGET: '1000000',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server not ready after ${timeoutMs} ms:\n${out}`)), timeoutMs)
    const onData = (b: Buffer) => {
      out += b.toString()
      const line = out.split('\n').find((l) => l.startsWith('Ready on'))
      if (line) {
        clearTimeout(timer)
        resolve(line)
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', (b: Buffer) => (out += b.toString()))
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code} before ready:\n${out}`))
    })
  })
  ready.catch(() => undefined)
  process.once('exit', () => child.kill('SIGKILL'))
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    ready,
    exited,
    output: () => out,
    kill: (signal = 'SIGTERM') => void child.kill(signal),
  }
}
