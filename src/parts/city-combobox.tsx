import { useLayoutEffect, useMemo, useRef, useState } from 'react'
import { Combobox, createListCollection } from '@ark-ui/react/combobox'
import { Portal } from '@ark-ui/react/portal'
import { css } from '../../styled-system/css'
import type { City } from '../../contract/schemas.ts'
import { formStyles, type CityFieldProps } from './search-form-parts.ts'

const styles = {
  control: css({ position: 'relative', display: 'flex' }),
  input: css({ pe: '11!' }),
  trigger: css({
    position: 'absolute',
    insetInlineEnd: '0',
    top: '0',
    height: 'full',
    width: 'touch',
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    bg: 'transparent',
    border: 'none',
    color: 'gray.800',
    cursor: 'pointer',
    borderRadius: 'md',
    _focusVisible: { outline: '3px solid {colors.blue.700}', outlineOffset: '-3px' },
  }),
  content: css({
    zIndex: 'overlay',
    bg: 'white',
    border: '1px solid {colors.gray.500}',
    borderRadius: 'md',
    boxShadow: 'md',
    maxHeight: '18rem',
    overflowY: 'auto',
    p: '1',
    _focusVisible: { outline: 'none' },
  }),
  item: css({
    display: 'flex',
    justifyContent: 'space-between',
    gap: '3',
    minHeight: 'touch',
    alignItems: 'center',
    px: '3',
    borderRadius: 'sm',
    cursor: 'pointer',
    '&[data-highlighted]': { bg: 'brand.50', outline: '2px solid {colors.brand.700}' },
    '&[data-state=checked]': { fontWeight: 'bold' },
  }),
  code: css({ color: 'gray.600', fontSize: 'sm' }),
  empty: css({ px: '3', py: '2', color: 'gray.600' }),
  live: css({ srOnly: true }),
}

const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()

/** Type-ahead over city names (either language) and codes. */
function matches(c: City, query: string): boolean {
  const q = fold(query.trim())
  if (!q) return true
  return fold(c.name).includes(q) || c.nameBn.includes(query.trim()) || c.code.toLowerCase().startsWith(q)
}

/** The From / To picker: Ark Combobox with type-ahead over the city list. */
export function CityCombobox({ label, cities, value, onChange, error, name, placeholder, noMatch, bn, takeFocus }: CityFieldProps) {
  const [query, setQuery] = useState('')
  const input = useRef<HTMLInputElement>(null)
  useLayoutEffect(() => {
    if (takeFocus?.()) input.current?.focus()
  }, [])
  const nameOf = (c: City) => (bn ? c.nameBn : c.name)
  const items = useMemo(() => cities.filter((c) => matches(c, query)), [cities, query])
  const collection = useMemo(
    () => createListCollection<City>({ items, itemToValue: (c) => c.code, itemToString: (c) => (bn ? c.nameBn : c.name) }),
    [items, bn],
  )
  const selected = cities.find((c) => c.code === value)
  return (
    <Combobox.Root
      className={formStyles.field}
      collection={collection}
      value={value ? [value] : []}
      inputValue={query || (selected ? nameOf(selected) : '')}
      onInputValueChange={(d) => setQuery(d.reason === 'input-change' ? d.inputValue : '')}
      onValueChange={(d) => {
        setQuery('')
        onChange(d.value[0] ?? '')
      }}
      onOpenChange={(d) => {
        if (!d.open) setQuery('')
      }}
      openOnClick
      inputBehavior="autohighlight"
      selectionBehavior="replace"
      invalid={!!error}
      name={name}
      placeholder={placeholder}
      positioning={{ sameWidth: true, gutter: 4 }}
    >
      <Combobox.Label className={formStyles.label}>{label}</Combobox.Label>
      <Combobox.Control className={styles.control}>
        <Combobox.Input ref={input} className={[formStyles.control, styles.input].join(' ')} aria-describedby={`${name}-city-error`} />
        {/* a pointer's way to open the list (the field opens it from the keyboard): hidden from screen
            readers, which would otherwise meet a second control named like the field */}
        <Combobox.Trigger className={styles.trigger} aria-hidden="true">
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M6 9l6 6 6-6" />
          </svg>
        </Combobox.Trigger>
      </Combobox.Control>
      <p id={`${name}-city-error`} className={formStyles.error} aria-live="polite">
        {error ?? ''}
      </p>
      {/* the empty list's text sits inside the listbox, where it is not read out: say it here */}
      <p role="status" className={styles.live}>
        {query.trim() && items.length === 0 ? noMatch : ''}
      </p>
      <Portal>
        <Combobox.Positioner>
          <Combobox.Content className={styles.content}>
            {items.length === 0 ? (
              <div className={styles.empty} aria-hidden="true">
                {noMatch}
              </div>
            ) : null}
            {items.map((c) => (
              <Combobox.Item key={c.code} item={c} className={styles.item}>
                <Combobox.ItemText>{nameOf(c)}</Combobox.ItemText>
                <span className={styles.code} aria-hidden="true">
                  {c.code}
                </span>
              </Combobox.Item>
            ))}
          </Combobox.Content>
        </Combobox.Positioner>
      </Portal>
    </Combobox.Root>
  )
}
