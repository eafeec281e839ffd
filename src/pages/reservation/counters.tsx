import { useId } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { css, cx } from '../../../styled-system/css'
import type { BusStation } from '../../../contract/schemas.ts'
import { useT } from '../../app/use-t.ts'
import { formatTime } from '../../lib/dates.ts'
import { useSeatPage } from './use-seat-page.ts'
import { page } from '../../parts/page-styles.ts'
import { ui } from '../../app-models.ts'

const styles = {
  row: css({ display: 'grid', gap: '3', gridTemplateColumns: '1fr', sm: { gridTemplateColumns: '1fr 1fr' } }),
  field: css({ display: 'flex', flexDirection: 'column', gap: '1', minWidth: '0' }),
  label: css({ fontWeight: 'medium' }),
  select: css({ width: 'full' }),
}

function StationSelect(props: {
  label: string
  placeholder: string
  stations: BusStation[]
  value: number | null
  onChange: (id: number | null) => void
}) {
  const id = useId()
  const lang = ui.language.value
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {props.label}
      </label>
      <select
        id={id}
        className={cx(page.select, styles.select)}
        value={props.value ?? ''}
        onChange={(e) => props.onChange(e.currentTarget.value ? Number(e.currentTarget.value) : null)}
      >
        <option value="">{props.placeholder}</option>
        {props.stations.map((s) => (
          // the network file names stations in English only: a name alone is marked so; one with its time
          // in the page's digits is left to the page's language
          <option key={s.id} value={s.id} lang={s.time ? undefined : 'en'}>
            {s.time ? `${s.name} (${formatTime(s.time, lang)})` : s.name}
          </option>
        ))}
      </select>
    </div>
  )
}

/** Boarding and dropping counters (SPEC departureScheduleId and arrivalScheduleId). */
export function Counters() {
  useSignals()
  const seatChoice = useSeatPage()
  const t = useT()
  return (
    <div className={styles.row}>
      <StationSelect
        label={t('seatChoice.boarding')}
        placeholder={t('seatChoice.chooseCounter')}
        stations={seatChoice.boardingStations.value}
        value={seatChoice.departureScheduleId.value}
        onChange={seatChoice.chooseBoarding}
      />
      <StationSelect
        label={t('seatChoice.dropping')}
        placeholder={t('seatChoice.chooseCounter')}
        stations={seatChoice.droppingStations.value}
        value={seatChoice.arrivalScheduleId.value}
        onChange={seatChoice.chooseDropping}
      />
    </div>
  )
}
