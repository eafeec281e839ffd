/**
 * Keeps V8 from compiling its own code for PGlite's calls out of WebAssembly into JavaScript.
 *
 * Why: on Node 24.21.0 (V8 13.6) a process that opens and closes many PGlite databases dies now and then with
 * `Check failed: jit_page_->allocations_.erase(addr) == 1` (ended by SIGTRAP). The stack, symbolised against the
 * node binary: `Runtime_TierUpWasmToJSWrapper` → `~WasmCodeRefScope` → `WasmEngine::FreeDeadCode` →
 * `WasmImportWrapperCache::Free` → `WasmCodeAllocator::FreeCode` → `ThreadIsolation::UnregisterWasmAllocation`.
 * V8 first calls JavaScript from WebAssembly through a generic built-in wrapper and, after
 * `--wasm-wrapper-tiering-budget` (1,000) calls of one import, compiles a wrapper for it into a process-wide cache;
 * freeing such a wrapper once no database uses it is where the check fails (nodejs/node#64500 has the same check
 * from the same churn). With the budget out of reach no wrapper is compiled (none in PGlite's run under
 * `--print-wasm-stub-code`, 26 without), so that cache frees nothing. The cost: about 50 ns more per call out of
 * WebAssembly; a PGlite query took the same time with and without it (measured in docs/testing.md).
 *
 * Set at run time so that every way in (the server, the tests, the tools) gets it from the one adapter; V8 reads
 * the budget when a WebAssembly instance is made, so it must run before the first PGlite opens.
 */
import v8 from 'node:v8'

/** The greatest budget V8 takes (a 32-bit signed count of calls): never reached. */
export const NEVER = 2 ** 31 - 1

/**
 * Whether this V8 tiers wrappers up (from 11.7; the generic wrapper is its default from 12.3). Node 20's V8 (11.3)
 * has no such flag: setting it there prints "Error: unrecognized flag" to stderr.
 */
export function tiersWrappersUp(v8Version = process.versions.v8): boolean {
  const [major = 0, minor = 0] = v8Version.split('.').map(Number)
  return major > 11 || (major === 11 && minor >= 7)
}

/** Sets the budget for this process (again, harmlessly, on each later call) where V8 has it. */
export function keepWasmWrappersGeneric(): void {
  if (tiersWrappersUp()) v8.setFlagsFromString(`--wasm-wrapper-tiering-budget=${NEVER}`)
}
