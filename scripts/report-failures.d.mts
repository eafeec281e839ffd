/** Each failed browser test of a Playwright JSON report, with where and how it failed (scripts/report-failures.mjs). */
export function reportFailures(json: unknown, root: string): string[]
