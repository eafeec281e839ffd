/**
 * The build's hashed assets (`dist/assets/`), served from memory: a name is read from disk once,
 * with the brotli and gzip copies the build writes beside it, and each later request is answered
 * from that copy. A hashed name never changes content (a changed file is a new name), so the copy
 * is never stale, and the answer says so (immutable for a year).
 *
 * Why not @fastify/static here, as for the shells: it checks every request's path spelling by
 * listing each folder on the way (a `readdir` of the ~220 files of assets/ and their copies per
 * script), and opens, stats and streams the file each time. On `npm start` that was most of the
 * server's CPU in a page load, taken from the phone's browser when both share a machine
 * (docs/performance.md, "The seat page's main thread").
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance, FastifyRequest } from 'fastify'

/** The cache rule of a file whose name holds its content's hash (assets/, and hashed files elsewhere in dist/). */
export const IMMUTABLE = 'public, max-age=31536000, immutable'

/** A file name the build writes into assets/: no folder, no dot first, nothing but these. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  // the build's compressed copies asked for by name (a worker whose list was written after them): the bytes
  // as they are; a .br goes out as application/octet-stream, which compression wraps once more, as before
  '.gz': 'application/gzip',
}

interface Asset {
  type: string
  plain: Buffer
  br: Buffer | null
  gzip: Buffer | null
}

async function readOrNull(file: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(file)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'EISDIR') return null
    throw e
  }
}

/** The encodings `accept-encoding` takes, of br and gzip (`q=0` refuses one). */
function accepted(header: string | undefined): { br: boolean; gzip: boolean } {
  const out = { br: false, gzip: false }
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';')
    const refused = params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))
    if (name === 'br' || name === '*') out.br ||= !refused
    if (name === 'gzip' || name === '*') out.gzip ||= !refused
  }
  return out
}

/**
 * GET and HEAD `/assets/<name>` from `dir`. A name that is not there (an old build's chunk) goes to
 * the app's not-found handler; it is looked for again on the next request (a build may write it meanwhile).
 */
export function registerAssets(app: FastifyInstance, dir: string): void {
  const held = new Map<string, Promise<Asset | null>>()
  const load = (name: string): Promise<Asset | null> => {
    let p = held.get(name)
    if (!p) {
      const file = path.join(dir, name)
      p = Promise.all([readOrNull(file), readOrNull(`${file}.br`), readOrNull(`${file}.gz`)]).then(([plain, br, gzip]) =>
        plain ? { type: TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream', plain, br, gzip } : null,
      )
      held.set(name, p)
      // not there (yet), or unreadable: forgotten, so the next request looks again
      p.then(
        (a) => a ?? held.delete(name),
        () => held.delete(name),
      )
    }
    return p
  }

  app.get('/assets/:name', async (req: FastifyRequest<{ Params: { name: string } }>, reply) => {
    const { name } = req.params
    if (!ASSET_NAME.test(name) || name.includes('..')) return reply.callNotFound()
    const asset = await load(name)
    if (!asset) return reply.callNotFound()
    reply.header('cache-control', IMMUTABLE)
    reply.type(asset.type)
    reply.header('vary', 'accept-encoding')
    const takes = accepted(req.headers['accept-encoding'])
    // the build's own copies (brotli 11, gzip 9); a file without them is compressed on the way, as any answer
    if (takes.br && asset.br) return reply.header('content-encoding', 'br').send(asset.br)
    if (takes.gzip && asset.gzip) return reply.header('content-encoding', 'gzip').send(asset.gzip)
    return reply.send(asset.plain)
  })
}
