/**
 * nginx (Debian's package, as .ci/run installs it) serving a built dist/ with
 * the configuration docs/deploying-the-app.md gives, docs/nginx-app.conf, as it is: only its `listen` and
 * `root` lines are set for the test. The process is an unprivileged nginx this
 * test starts on 127.0.0.1 (its pid file, temp folders and logs in a temp folder)
 * and stops. The benchmark (bench/lighthouse.ts) also runs it with TLS and HTTP/2,
 * as a site is deployed, and as the reverse proxy of docs/operating.md in front of the API server.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import https from 'node:https'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
/** The nginx site for the app on its own origin (docs/deploying-the-app.md). */
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

/** A certificate and its key (PEM files) for `listen … ssl`. */
export interface Tls {
  cert: string
  key: string
}

/** A self-signed certificate for 127.0.0.1 made with openssl in `dir` (browsers told to accept it). */
export function selfSignedCert(dir: string): Tls {
  const tls = { cert: path.join(dir, 'cert.pem'), key: path.join(dir, 'key.pem') }
  // openssl comes with Debian's ca-certificates, which Chromium and nginx pull in
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      tls.key,
      '-out',
      tls.cert,
    ],
    { stdio: 'ignore' },
  )
  return tls
}

/** The `listen` value for `port` on 127.0.0.1: with TLS and HTTP/2 (nginx 1.22's spelling) when `tls` is given, plus the certificate lines. */
function listenOn(port: number, tls?: Tls): { listen: string; certLines: string } {
  if (!tls) return { listen: `127.0.0.1:${port}`, certLines: '' }
  return { listen: `127.0.0.1:${port} ssl http2`, certLines: `    ssl_certificate ${tls.cert};\n    ssl_certificate_key ${tls.key};\n` }
}

/**
 * docs/nginx-app.conf with its `listen` and `root` set (and, with `tls`, TLS and HTTP/2
 * as docs/deploying-the-app.md says to add); throws when the file no longer has exactly one of each.
 */
export function siteConfig(port: number, dist: string, tls?: Tls): string {
  let text = fs.readFileSync(NGINX_SITE, 'utf8')
  const { listen, certLines } = listenOn(port, tls)
  for (const [directive, value] of [
    ['listen', listen],
    ['root', dist],
  ] as const) {
    const line = new RegExp(`^(\\s*)${directive}\\s+[^;]+;`, 'gm')
    const found = text.match(line)?.length ?? 0
    if (found !== 1) throw new Error(`${NGINX_SITE}: expected one ${directive} line, found ${found}`)
    text = text.replace(line, `$1${directive} ${value};`)
  }
  return certLines ? text.replace(/^(\s*listen [^;]+;\n)/m, `$1${certLines}`) : text
}

/** The reason nginx's own 413 (a body over `client_max_body_size`) gives, in the API's error format. */
export const PROXY_TOO_LARGE = '{"error":{"code":"VALIDATION_FAILED","reason":"The request is too large."}}'

/**
 * The reverse proxy in front of the API server (docs/operating.md, "Behind a proxy" and "The live
 * seat map behind a proxy"; scripts/docs.test.ts checks the page shows these locations): every path
 * passed to `upstream` (one server, or an `upstream` group from `apiUpstream`), the seat stream
 * unbuffered. Bodies are read whole by nginx first and are at most 1 MB, no more than the API server
 * reads and drops before its own 413 (server/http/oversize.ts), so an oversize request never breaks a
 * connection to a backend; a larger one gets nginx's 413, in the API's error format.
 */
export function proxySite(port: number, upstream: string, tls?: Tls): string {
  const { listen, certLines } = listenOn(port, tls)
  const pass = `        proxy_pass ${upstream};
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_request_buffering on;
        proxy_next_upstream error timeout;
        proxy_next_upstream_tries 2;`
  return `server {
    listen ${listen};
${certLines}    client_max_body_size 1m;
    error_page 413 @too_large;
    location @too_large {
        default_type application/json;
        return 413 '${PROXY_TOO_LARGE}';
    }
    location / {
${pass}
    }
    location /api/reservation/seatEvents/ {
${pass}
        proxy_buffering off;
        proxy_cache off;
        gzip off;
        proxy_read_timeout 60s;
    }
}
`
}

/**
 * README's `upstream` of several API server processes (`host:port` each): a backend is
 * taken out for 10 s only after 3 failed connections or time-outs within 10 s, so one
 * request that goes wrong does not take it out for everyone.
 */
export function apiUpstream(name: string, hosts: string[]): string {
  return `upstream ${name} {
${hosts.map((h) => `    server ${h} max_fails=3 fail_timeout=10s;\n`).join('')}    keepalive 16;
}
`
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

/** Starts nginx on `port` serving `dist` with docs/nginx-app.conf; resolves once it answers. */
export function startNginx(port: number, dist: string): Promise<Nginx> {
  return runNginx(siteConfig(port, dist), `http://127.0.0.1:${port}`)
}

/** True when `url` answers 2xx (an https URL with a certificate signed by `ca`). */
function answers(url: string, ca?: string): Promise<boolean> {
  if (!url.startsWith('https:')) {
    return fetch(url).then(
      (r) => r.ok,
      () => false,
    )
  }
  return new Promise((resolve) => {
    const req = https.get(url, { ca: ca ? fs.readFileSync(ca) : undefined }, (res) => {
      res.resume()
      resolve((res.statusCode ?? 500) < 300)
    })
    req.on('error', () => resolve(false))
  })
}

/**
 * Starts an unprivileged nginx with `sites` (server blocks); resolves once `origin` answers
 * `readyPath` (over TLS with `tls`'s certificate when it is https).
 */
export async function runNginx(sites: string, origin: string, tls?: Tls, readyPath = '/'): Promise<Nginx> {
  const bin = findNginx()
  if (!bin) throw new Error(nginxMissing()!)
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-nginx-'))
  const conf = path.join(prefix, 'nginx.conf')
  fs.writeFileSync(conf, mainConfig(prefix, sites))
  const read = (f: string) => (fs.existsSync(path.join(prefix, f)) ? fs.readFileSync(path.join(prefix, f), 'utf8') : '')
  const logs = () => `${read('error.log')}${read('access.log')}`
  let out = ''
  const child: ChildProcess = spawn(bin, ['-p', prefix, '-c', conf, '-e', path.join(prefix, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const deadline = Date.now() + 15_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${out}${logs()}`)
    if (await answers(`${origin}${readyPath}`, tls?.cert)) break
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
