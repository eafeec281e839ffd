import { StatusMessage } from '../../design-system/status/index.ts'
import type { RequestError } from '../api/api-error.ts'
import { useMessageText } from '../app/use-t.ts'
import { messageForError } from '../models/ui.ts'

/**
 * A failed request under the form (its catalogue message, else the server's reason), read out at once.
 * `ids` gives some codes a message of this form's own (with the error's values), e.g. what to do instead.
 */
export function ServerError({ error, ids }: { error: RequestError | null | undefined; ids?: Partial<Record<string, string>> }) {
  const text = useMessageText()
  const own = error ? ids?.[error.code] : undefined
  return (
    <StatusMessage tone="error" politeness="assertive">
      {error ? text(own ? { id: own, values: error.values } : messageForError(error)) : null}
    </StatusMessage>
  )
}
