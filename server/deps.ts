/** Builds the `Deps` every module gets, from an open database and settings (env by default). */
import { HOLD_MINUTES, MAX_HOLD_MINUTES } from '../contract/schemas.ts';
import type { Db } from './db.ts';
import type { Deps, Outbox } from './http.ts';
import { devOutbox } from './outbox.ts';
import { sessionAuthenticator } from './sessions.ts';

export interface DepsOptions {
  now?: () => Date;
  outbox?: Outbox;
  publicUrl?: string;
  production?: boolean;
  passwordMaxAgeDays?: number;
  /** Silences the development outbox's console lines (tests). */
  quiet?: boolean;
  /** Trip-search cache time; default SEARCH_CACHE_MS or 2000, and 0 with a test clock. */
  searchCacheMs?: number;
}

/** Wires the database, clock, outbox, authenticator and configuration. */
export function createDeps(db: Db, opts: DepsOptions = {}): Deps {
  const env = process.env;
  const now = opts.now ?? (() => new Date());
  const port = env.PORT ?? '8080';
  return {
    db,
    now,
    outbox: opts.outbox ?? devOutbox(db, now, opts.quiet ? () => undefined : undefined),
    authenticate: sessionAuthenticator(db, now),
    config: {
      publicUrl: (opts.publicUrl ?? env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
      production: opts.production ?? env.NODE_ENV === 'production',
      holdMinutes: HOLD_MINUTES,
      maxHoldMinutes: MAX_HOLD_MINUTES,
      searchCacheMs: opts.searchCacheMs ?? (env.SEARCH_CACHE_MS !== undefined ? Number(env.SEARCH_CACHE_MS) || 0 : opts.now ? 0 : 2000),
      passwordMaxAgeDays: opts.passwordMaxAgeDays ?? (Number(env.PASSWORD_MAX_AGE_DAYS) || 0),
    },
  };
}
