/** The message id of a seat type (`Sleeper Horizontal` → `seatType.sleeperHorizontal`). */
export function seatTypeId(seatType: string): string {
  const camel = seatType
    .split(/\s+/)
    .map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()))
    .join('')
  return `seatType.${camel}`
}
