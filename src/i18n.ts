/**
 * Locale messages. English is bundled with the entry (source of truth and
 * fallback); Bengali is bundled as its own chunk and loaded before first render
 * when chosen, so English visitors do not download it.
 */
import en from '../locales/en.json'
import type { Locale } from './lib/dates.ts'

/** id → ICU message. */
export type Messages = Record<string, string>

const cache: Partial<Record<Locale, Messages>> = { en }

/** Messages already loaded for `locale`, if any. */
export function messagesFor(locale: Locale): Messages | undefined {
  return cache[locale]
}

/** Loads (once) and returns the messages of `locale`; bn falls back to en keys it lacks. */
export async function loadMessages(locale: Locale): Promise<Messages> {
  const hit = cache[locale]
  if (hit) return hit
  const bn = (await import('../locales/bn.json')).default as Messages
  cache.bn = { ...en, ...bn }
  return cache.bn
}
