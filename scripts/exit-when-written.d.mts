/** Exits with `code` after stdout and stderr have written all they hold (scripts/exit-when-written.mjs). */
export function exitWhenWritten(code: number): Promise<never>
