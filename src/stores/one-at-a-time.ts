/**
 * The request guard the booking and ticket stores share: one request at a time
 * per store, its failure kept as a scoped error (catalogue code and the
 * server's reason) for the part of the page that asked.
 */
import { batch, type Signal } from '@preact/signals-react';

/** A failed request: where it came from, the catalogue code, the server's reason. */
export interface ScopedError<S extends string> {
  scope: S;
  code: string;
  reason: string;
  /** Values of the code's message from the server (e.g. `{ minutes: 12 }`). */
  values?: Record<string, string | number>;
}

/** Turns anything thrown (ApiError or not) into a ScopedError. */
export function scopedError<S extends string>(scope: S, err: unknown): ScopedError<S> {
  const e = err as { code?: unknown; reason?: unknown; message?: unknown; values?: Record<string, string | number> } | null;
  return {
    scope,
    code: typeof e?.code === 'string' ? e.code : 'INTERNAL_ERROR',
    reason: typeof e?.reason === 'string' ? e.reason : typeof e?.message === 'string' ? e.message : '',
    ...(e?.values ? { values: e.values } : {}),
  };
}

/**
 * A runner over the store's busy and error signals: answers undefined when a
 * request is already under way or when `work` failed (the error is kept).
 */
export function oneAtATime<K extends string, S extends string>(busy: Signal<K | null>, error: Signal<ScopedError<S> | null>) {
  return async function run<T>(kind: K, scope: S, work: () => Promise<T>): Promise<T | undefined> {
    if (busy.value !== null) return undefined;
    batch(() => {
      busy.value = kind;
      error.value = null;
    });
    try {
      return await work();
    } catch (err) {
      error.value = scopedError(scope, err);
      return undefined;
    } finally {
      busy.value = null;
    }
  };
}
