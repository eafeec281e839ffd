/**
 * True while the build renders the home page to static HTML (src/prerender.tsx).
 * Parts that only work with JavaScript (the search form) keep their space there
 * but are not shown, so nothing visible is ever inert.
 */
let active = false

/** Whether this render is the build-time prerender. */
export function isPrerendering(): boolean {
  return active
}

/** Marks the start or end of the build-time prerender. */
export function setPrerendering(on: boolean): void {
  active = on
}
