/**
 * nginx (Debian's package, as .ci/run installs it) serving a built dist/ with
 * README's configuration, docs/nginx-app.conf, as it is: only its `listen` and
 * `root` lines are set for the test. The process is an unprivileged nginx this
 * test starts on 127.0.0.1 (its pid file, temp folders and logs in a temp folder)
 * and stops.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
/** README's nginx configuration for the app on its own origin. */
export const NGINX_SITE = path.join(root, 'docs/nginx-app.conf')
const MIME_TYPES = '/etc/nginx/mime.types'

/** The nginx executable: NGINX_PATH when set (the only one looked at: NGINX_PATH=none hides nginx), else on PATH or Debian's. */
function findNginx(): string | null {
  const onPath = (process.env.PATH ?? '').split(':').map((d) => path.join(d, 'nginx'))
  const candidates = process.env.NGINX_PATH ? [process.env.NGINX_PATH] : [...onPath, '/usr/sbin/nginx']
  return candidates.find((p) => fs.existsSync(p)) ?? null
}

/** Why nginx cannot run here, or null when it can. */
export function nginxMissing(): string | null {
  if (!findNginx()) {
    const where = process.env.NGINX_PATH ? `no nginx at NGINX_PATH=${process.env.NGINX_PATH}` : 'no nginx found'
    return `${where}: install Debian's package (\`apt-get install nginx\`; .ci/run does)`
  }
  if (!fs.existsSync(MIME_TYPES)) return `no ${MIME_TYPES} (Debian's nginx-common package)`
  return null
}

/** docs/nginx-app.conf with its `listen` and `root` set; throws when the file no longer has exactly one of each. */
export function siteConfig(port: number, dist: string): string {
  let text = fs.readFileSync(NGINX_SITE, 'utf8')
  for (const [directive, value] of [
    ['listen', `127.0.0.1:${port}`],
    ['root', dist],
  ] as const) {
    const line = new RegExp(`^(\\s*)${directive}\\s+[^;]+;`, 'gm')
    const found = text.match(line)?.length ?? 0
    if (found !== 1) throw new Error(`${NGINX_SITE}: expected one ${directive} line, found ${found}`)
    text = text.replace(line, `$1${directive} ${value};`)
  }
  return text
}

/** A whole nginx.conf for an unprivileged nginx in `prefix` around the site. */
function mainConfig(prefix: string, site: string): string {
  const t = (name: string) => path.join(prefix, name)
  // as root, nginx hands requests to workers running as `user` (nobody by default), who could not read a private temp folder
  const user = process.getuid?.() === 0 ? `user ${os.userInfo().username};\n` : ''
  return `${user}daemon off;
worker_processes 1;
pid ${t('nginx.pid')};
error_log ${t('error.log')} warn;
events { worker_connections 256; }
http {
  include ${MIME_TYPES};
  default_type application/octet-stream;
  access_log ${t('access.log')};
  client_body_temp_path ${t('client-body')};
  proxy_temp_path ${t('proxy')};
  fastcgi_temp_path ${t('fastcgi')};
  uwsgi_temp_path ${t('uwsgi')};
  scgi_temp_path ${t('scgi')};
${site}
}
`
}

/** A running nginx: its origin, and how to stop it. */
export interface Nginx {
  origin: string
  /** What nginx logged (errors and the access log). */
  logs(): string
  stop(): Promise<void>
}

/** Starts nginx on `port` serving `dist` with README's configuration; resolves once it answers. */
export async function startNginx(port: number, dist: string): Promise<Nginx> {
  const bin = findNginx()
  if (!bin) throw new Error(nginxMissing()!)
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-nginx-'))
  const conf = path.join(prefix, 'nginx.conf')
  fs.writeFileSync(conf, mainConfig(prefix, siteConfig(port, dist)))
  const read = (f: string) => (fs.existsSync(path.join(prefix, f)) ? fs.readFileSync(path.join(prefix, f), 'utf8') : '')
  const logs = () => `${read('error.log')}${read('access.log')}`
  let out = ''
  const child: ChildProcess = spawn(bin, ['-p', prefix, '-c', conf, '-e', path.join(prefix, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const origin = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 15_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${out}${logs()}`)
    const ok = await fetch(`${origin}/`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`nginx did not answer on ${origin}:\n${out}${logs()}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    origin,
    logs,
    async stop() {
      // QUIT: workers finish their requests, then the master exits
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT')
      await exited
      fs.rmSync(prefix, { recursive: true, force: true })
    },
  }
}
