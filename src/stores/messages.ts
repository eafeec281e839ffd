/**
 * Turns store notes and server failures into the UI store's messages: a
 * catalogue code shows its translated text (`error.<CODE>`), anything else the
 * server's reason as it came.
 */
import { isErrorCode } from '../../contract/errors.ts';
import type { Message } from './ui.ts';

/** A message id with values, and the text to show when the id is unknown. */
export interface NoteLike {
  id: string;
  values?: Record<string, string | number>;
  fallback?: string;
}

/** A note as a UI message: catalogue error ids fall back to the server's text when not a catalogue code. */
export function toMessage(note: NoteLike): Message {
  if (note.id.startsWith('error.') && note.fallback && !isErrorCode(note.id.slice(6))) return { text: note.fallback };
  return { id: note.id, values: note.values };
}

/** The message for a failed request: the catalogue text of `code`, else the server's reason. */
export function serverMessage(reason: string, code?: string, values?: Record<string, string | number>): Message {
  if (code && isErrorCode(code)) return { id: `error.${code}`, values };
  return reason ? { text: reason } : { id: 'error.unknown' };
}
