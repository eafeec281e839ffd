/** Text without the terminal colour codes test runners print (scripts/report-failures.mjs). */
export function strip(s: string): string
/** Each failed browser test of a Playwright JSON report, with where and how it failed (scripts/report-failures.mjs). */
export function reportFailures(json: unknown, root: string): string[]
