import { useT } from '../app/use-t.ts'
import { page } from './page-styles.ts'

/** A legal page: heading, last-updated line and numbered sections from `<scope>.s<n>.title/body`. */
export function LegalText({ scope, sections }: { scope: 'terms' | 'privacy'; sections: number }) {
  const t = useT()
  return (
    <article className={page.prose}>
      <h1 className={page.h1} tabIndex={-1}>
        {t(`${scope}.heading`)}
      </h1>
      <p className={page.muted}>{t(`${scope}.updated`)}</p>
      {Array.from({ length: sections }, (_, i) => i + 1).map((n) => (
        <section key={n} aria-labelledby={`${scope}-s${n}`}>
          <h2 id={`${scope}-s${n}`} className={page.h2}>
            {t(`${scope}.s${n}.title`)}
          </h2>
          <p>{t(`${scope}.s${n}.body`)}</p>
        </section>
      ))}
    </article>
  )
}
