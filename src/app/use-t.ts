import { useCallback, type ReactNode } from 'react'
import { useIntl } from 'react-intl'
import type { Message } from '../models/ui.ts'

type Values = Record<string, string | number>

/** `t(id, values)`: formats a message id of the active locale. */
export function useT() {
  const intl = useIntl()
  return useCallback((id: string, values?: Values) => intl.formatMessage({ id }, values), [intl])
}

/**
 * `rt(id, values)`: formats a message whose values may be elements (a code or an address marked
 * `lang="en"` inside a sentence in the page's language).
 */
export function useRichT() {
  const intl = useIntl()
  return useCallback((id: string, values: Record<string, ReactNode>): ReactNode => intl.formatMessage({ id }, values), [intl])
}

/** Turns a store Message (id or ready text) into display text. */
export function useMessageText() {
  const intl = useIntl()
  return useCallback((m: Message | null | undefined) => (!m ? '' : 'text' in m ? m.text : intl.formatMessage({ id: m.id }, m.values)), [intl])
}
