/**
 * Locale messages. English is the source of truth and fallback: its core scopes
 * (shell, home page, route titles; locales/core-scopes.json) are bundled with the
 * entry, and each page's other scopes are a chunk of their own, loaded with the page
 * (`loadPageMessages`, src/routes.ts `pageMessages`). Bengali is its own chunk, loaded
 * whole before the first render when chosen. Outside the build (unit tests) en.json
 * is imported whole.
 */
import en from '../locales/en.json'
import type { Locale } from './lib/dates.ts'
import { loadErrorMessageChunk, pageMessageLoaders } from './page-messages.ts'
import type { PageKey } from './routes.ts'

/** id → ICU message. */
export type Messages = Record<string, string>

// One object per locale, completed in place, so an IntlProvider that already
// holds it sees messages that arrive later.
const english: Messages = { ...en }
const cache: Partial<Record<Locale, Messages>> = { en: english }
const pages = new Map<PageKey, Promise<void>>()

/** Messages already loaded for `locale`, if any. */
export function messagesFor(locale: Locale): Messages | undefined {
  return cache[locale]
}

/** Loads (once) and returns the messages of `locale`; bn falls back to en keys it lacks. */
export async function loadMessages(locale: Locale): Promise<Messages> {
  const hit = cache[locale]
  if (hit) return hit
  // bn has every key (locales.test.ts), so it needs no English beyond the core
  const bn = await import('../locales/bn.json')
  cache.bn = { ...english, ...(bn.default as Messages) }
  return cache.bn
}

/** Completes the English messages with those `page` uses (once; a failed load is tried again next time). */
export function loadPageMessages(page: PageKey): Promise<void> {
  const load = pageMessageLoaders[page]
  if (!load) return Promise.resolve()
  let done = pages.get(page)
  if (!done) {
    done = load().then(
      (m) => void Object.assign(english, m.default),
      (err) => {
        pages.delete(page)
        throw err
      },
    )
    pages.set(page, done)
  }
  return done
}

let errorMessages: Promise<void> | undefined

/**
 * Completes the English messages with the error catalogue's (once; tried again after
 * a failure). Started right after the first render: every error but losing the
 * connection comes from a request, which takes longer than this chunk.
 */
export function loadErrorMessages(): Promise<void> {
  if (!loadErrorMessageChunk) return Promise.resolve()
  errorMessages ??= loadErrorMessageChunk().then(
    (m) => void Object.assign(english, m.default),
    (err) => {
      errorMessages = undefined
      throw err
    },
  )
  return errorMessages
}
