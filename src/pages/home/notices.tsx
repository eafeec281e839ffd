import { useEffect, useRef, type KeyboardEvent } from 'react'
import { effect } from '@preact/signals-react'
import { useSignals } from '@preact/signals-react/runtime'
import { css, cx } from '../../../styled-system/css'
import { button } from '../../../styled-system/recipes'
import { useT } from '../../app/use-t.ts'
import { pageHeading } from '../../lib/focus.ts'
import { dismissNotice, notices, showUnseenAnnouncements } from '../../stores/notices.ts'
import { page } from '../../parts/page-styles.ts'
import { lookups, ui } from '../../app-models.ts'

const styles = {
  list: css({ listStyle: 'none', m: '0', p: '0', display: 'flex', flexDirection: 'column', gap: '2' }),
  item: css({
    display: 'flex',
    alignItems: 'flex-start',
    gap: '2',
    bg: 'white',
    border: '1px solid {colors.gray.200}',
    borderInlineStart: '6px solid {colors.blue.700}',
    borderRadius: 'md',
    py: '2',
    ps: '3',
    pe: '1',
  }),
  text: css({ flex: '1', minWidth: '0', py: '2' }),
  dismiss: css({ flexShrink: 0, fontSize: 'xl' }),
  box: css({ mt: '6' }),
}

/**
 * The announcements of docs/spec.md section 2, each shown once as a persistent info notice, in the
 * page itself: never over the search form or anything else. Each has a dismiss button; Escape
 * dismisses the focused one. Focus then goes to the next notice, else back to the page heading.
 * The region is polite, so announcements arriving after the page are read out.
 */
export function Notices() {
  useSignals()
  const t = useT()
  const list = notices.value
  const bn = ui.language.value === 'bn'
  const listRef = useRef<HTMLUListElement>(null)
  // the announcements not shown in this tab yet join the list, now or when they arrive
  useEffect(
    () =>
      effect(() => {
        const news = lookups.announcements.value
        if (news.length > 0) showUnseenAnnouncements(news)
      }),
    [],
  )

  const dismiss = (id: number, index: number) => {
    const buttons = [...(listRef.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])]
    const next = buttons[index + 1] ?? buttons[index - 1]
    dismissNotice(id)
    if (next) next.focus()
    else pageHeading()?.focus()
  }

  return (
    <div aria-live="polite" className={list.length ? styles.box : undefined}>
      {list.length ? (
        <section aria-labelledby="home-announcements">
          <h2 id="home-announcements" className={page.h3}>
            {t('home.announcements')}
          </h2>
          <ul ref={listRef} className={styles.list}>
            {list.map((a, i) => {
              const title = bn ? a.titleBn : a.title
              return (
                <li
                  key={a.id}
                  className={styles.item}
                  onKeyDown={(e: KeyboardEvent) => {
                    if (e.key !== 'Escape') return
                    e.preventDefault()
                    dismiss(a.id, i)
                  }}
                >
                  <p id={`notice-${a.id}`} className={styles.text}>
                    {title}
                  </p>
                  {/* named like every notification's close button; which one it closes is its description */}
                  <button
                    type="button"
                    className={cx(button({ variant: 'ghost', size: 'icon' }), styles.dismiss)}
                    aria-label={t('toast.close')}
                    aria-describedby={`notice-${a.id}`}
                    onClick={() => dismiss(a.id, i)}
                  >
                    <span aria-hidden="true">×</span>
                  </button>
                </li>
              )
            })}
          </ul>
        </section>
      ) : null}
    </div>
  )
}
