// Module resolve hook of the uvu test processes (scripts/uvu-files.mjs registers it): the test files' 'uvu' is
// scripts/uvu-reporting.mjs, which reports a failed before or after hook; that module and uvu itself get the real one.
const reporting = new URL('./uvu-reporting.mjs', import.meta.url).href

export async function resolve(specifier, context, next) {
  if (specifier === 'uvu' && context.parentURL && context.parentURL !== reporting && !context.parentURL.includes('/node_modules/')) {
    return next(reporting, context)
  }
  return next(specifier, context)
}
