/**
 * Password hashing with scrypt (node:crypto): per-user random salt, parameters
 * stored with the hash, timing-safe comparison. The cost is OWASP's recommendation
 * for scrypt (Password Storage Cheat Sheet: N=2^17, r=8, p=1); a hash made with
 * older, cheaper parameters is replaced at the passenger's next successful login.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

/** The scrypt parameters new hashes use. */
export const SCRYPT = { N: 2 ** 17, r: 8, p: 1 } as const
/** The cost tests whose subject is not the hash lower it to with hashCostForTest (a thousandth of SCRYPT's memory and time). */
export const TEST_SCRYPT = { N: 2 ** 10, r: 8, p: 1 } as const
type ScryptCost = { N: number; r: number; p: number }
// SCRYPT, except while a test whose subject is not the hash has lowered it (hashCostForTest)
let cost: ScryptCost = SCRYPT
const KEY_LEN = 32
// 128 * N * r bytes (128 MiB) plus headroom
const MAX_MEM = 256 * 1024 * 1024
// Each hash holds 128 MiB and a libuv thread for ~0.3 s: two at a time keep memory bounded
// and leave threads for file and DNS work when many passengers log in at once.
const MAX_CONCURRENT = 2

let running = 0
let derived = 0
const waiting: (() => void)[] = []

/** How many scrypt hashes this process has computed (started) so far: each one is the expensive part of a sign-in. */
export function hashesComputed(): number {
  return derived
}

async function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  derived++
  if (running >= MAX_CONCURRENT) await new Promise<void>((go) => waiting.push(go))
  running++
  try {
    return await new Promise((resolve, reject) =>
      scrypt(password.normalize('NFKC'), salt, KEY_LEN, { N: n, r, p, maxmem: MAX_MEM }, (err, key) => (err ? reject(err) : resolve(key))),
    )
  } finally {
    running--
    waiting.shift()?.()
  }
}

/** Hashes a password as `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, cost.N, cost.r, cost.p)
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

// Compared against when the account is unknown, so a miss costs as long as a hit.
let dummyHash: Promise<string> | null = null

/** True when `password` matches `stored`; a null `stored` still spends the same time and answers false. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const hash = stored ?? (await (dummyHash ??= hashPassword('not-a-real-password-Aa1!')))
  const parts = hash.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [, n, r, p, salt, expected] = parts
  const want = Buffer.from(expected!, 'base64url')
  const got = await derive(password, Buffer.from(salt!, 'base64url'), Number(n), Number(r), Number(p))
  return got.length === want.length && timingSafeEqual(got, want) && stored !== null
}

/** True when `stored` was made with other parameters than today's (rehash it after a successful login). */
export function needsRehash(stored: string | null): boolean {
  if (!stored) return false
  const [kind, n, r, p] = stored.split('$')
  return kind !== 'scrypt' || Number(n) !== cost.N || Number(r) !== cost.r || Number(p) !== cost.p
}

/**
 * Hashes (and rehashes to) `lower` until the returned function is called, for a test whose subject is not
 * the hash (the fuzz test: a production hash holds 128 MiB and a thread for about 0.3 s). Refused in production.
 */
export function hashCostForTest(lower: ScryptCost): () => void {
  if (process.env.NODE_ENV === 'production') throw new Error('hashCostForTest is for tests')
  cost = lower
  dummyHash = null
  return () => {
    cost = SCRYPT
    dummyHash = null
  }
}
