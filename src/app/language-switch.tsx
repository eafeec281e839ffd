import { useSignals } from '@preact/signals-react/runtime'
import { css } from '../../styled-system/css'
import { useT } from './use-t.ts'
import { ui } from '../app-models.ts'
import { LANGUAGES } from '../models/ui.ts'

const group = css({ display: 'flex', gap: '1' })
const btn = css({
  minHeight: 'touch',
  minWidth: 'touch',
  px: '2',
  bg: 'transparent',
  color: 'white',
  border: '1px solid transparent',
  borderRadius: 'sm',
  cursor: 'pointer',
  fontSize: 'sm',
  fontWeight: 'medium',
  '&[aria-pressed=true]': { borderColor: 'white', bg: 'brand.800' },
  _hover: { textDecoration: 'underline' },
  _focusVisible: { outline: '3px solid white', outlineOffset: '1px' },
})

/** en / বাংলা toggle; the choice is kept in session storage (`language`). */
export function LanguageSwitch() {
  useSignals()
  const t = useT()
  const current = ui.language.value
  return (
    // biome-ignore lint/a11y/useSemanticElements: two toggle buttons named as a group; a fieldset and legend would add a visible caption to the header
    <div role="group" aria-label={t('language.label')} className={group}>
      {LANGUAGES.map((l) => (
        <button key={l} type="button" lang={l} className={btn} aria-pressed={current === l} onClick={() => ui.setLanguage(l)}>
          {t(`language.${l}`)}
        </button>
      ))}
    </div>
  )
}
