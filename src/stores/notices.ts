/**
 * The home page's announcements (docs/spec.md section 2): each shown once in this tab, as a
 * persistent notice in the page itself (never over it), until the passenger dismisses it. Loaded
 * with the home page.
 */
import { computed, signal } from '@preact/signals-react'
import type { Announcement } from '../../contract/schemas.ts'
import { readJson, sessionStore, storageKeys } from '../lib/storage.ts'

const noticesState = signal<Announcement[]>([])

/** The announcements on the home page now. */
export const notices = computed(() => noticesState.value)

/**
 * The announcements of `list` not shown earlier in this tab (compared by id with the list
 * stored under `announcement`); then stores the current list there.
 */
export function takeUnseenAnnouncements(list: readonly Announcement[]): Announcement[] {
  if (list.length === 0) return []
  const store = sessionStore()
  const seen = new Set((readJson<Announcement[]>(store, storageKeys.announcement) ?? []).map((a) => a.id))
  const unseen = list.filter((a) => !seen.has(a.id))
  const merged = [...(readJson<Announcement[]>(store, storageKeys.announcement) ?? []), ...unseen]
  store.setItem(storageKeys.announcement, JSON.stringify(merged))
  return unseen
}

/** Adds the announcements of `list` not shown in this tab yet (they stay until dismissed). */
export function showUnseenAnnouncements(list: readonly Announcement[]): void {
  const unseen = takeUnseenAnnouncements(list)
  if (unseen.length) noticesState.value = [...noticesState.peek(), ...unseen]
}

/** The passenger dismissed an announcement: it is not shown again. */
export function dismissNotice(id: number): void {
  noticesState.value = noticesState.value.filter((a) => a.id !== id)
}

/** Test helper. */
export function resetNotices(): void {
  noticesState.value = []
}
