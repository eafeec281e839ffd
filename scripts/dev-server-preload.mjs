// npm run dev's server preload (scripts/dev.mjs): the new server's modules load while the previous server process
// stops, and its start goes on once that process has exited (DEV_PREVIOUS_PID) and left the data folder.
import fs from 'node:fs'

const main = new URL('../server/main.ts', import.meta.url)
const modules = [...fs.readFileSync(main, 'utf8').matchAll(/^import .+ from '(\.[^']+)'$/gm)].map((m) => new URL(m[1], main).href)
const previous = Number(process.env.DEV_PREVIOUS_PID)

/** Whether process `pid` still runs. */
function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return err.code === 'EPERM'
  }
}

async function exited(pid) {
  while (pid && alive(pid)) await new Promise((r) => setTimeout(r, 10))
}

await Promise.all([...modules.map((m) => import(m)), import('@electric-sql/pglite'), exited(previous)])
