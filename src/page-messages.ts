/**
 * Loaders of each page's English messages beyond the core ones, one chunk a page
 * (the scopes of src/routes.ts `pageMessages`), and of the error catalogue's
 * messages (locales/core-scopes.json `coreErrors` aside). The build replaces this module
 * (build.mjs, `precompiledLocales`); outside the build src/i18n.ts imports en.json
 * whole, so there is nothing to load.
 */
import type { PageKey } from './routes.ts'

export const pageMessageLoaders: Readonly<Partial<Record<PageKey, () => Promise<{ default: Record<string, string> }>>>> = {}

export const loadErrorMessageChunk: (() => Promise<{ default: Record<string, string> }>) | undefined = undefined
