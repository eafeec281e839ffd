/**
 * Locale messages. English is the source of truth and fallback: its core scopes
 * (shell, home page, route titles; locales/core-scopes.json) are bundled with the
 * entry, and the rest arrives in one chunk the first time another page opens
 * (`loadAllMessages`). Bengali is its own chunk, loaded whole before the first
 * render when chosen. Outside the build (unit tests) each import is the whole file.
 */
import en from '../locales/en.json'
import type { Locale } from './lib/dates.ts'

/** id → ICU message. */
export type Messages = Record<string, string>

// One object per locale, completed in place, so an IntlProvider that already
// holds it sees messages that arrive later.
const english: Messages = { ...en }
const cache: Partial<Record<Locale, Messages>> = { en: english }
let rest: Promise<void> | null = null

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

/** Completes the English messages with every non-core scope (before a page other than home renders). */
export function loadAllMessages(): Promise<void> {
  rest ??= import('./i18n-rest.ts').then(
    (m) => void Object.assign(english, m.default),
    (err) => {
      rest = null
      throw err
    },
  )
  return rest
}
