// Ends the process with `code` once stdout and stderr have handed over everything written to them. process.exit()
// alone drops what a pipe has not taken yet: when the reader is behind (a CI log on a busy machine, a test reading a
// nested run), the end of a long output and the summary after it went missing.

/** Exits with `code` after stdout and stderr have written all they hold. */
export async function exitWhenWritten(code) {
  await Promise.all([process.stdout, process.stderr].map((s) => new Promise((resolve) => s.write('', resolve))))
  process.exit(code)
}
