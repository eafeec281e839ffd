/**
 * How many parts an SMS is sent in (3GPP TS 23.038 alphabets): text wholly in the GSM 7-bit
 * alphabet takes 160 characters in one part (153 a part when split; an extension character
 * counts twice), anything else is sent as UCS-2: 70 characters in one part, 67 a part when split.
 */

const GSM_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà'
const GSM_EXTENSION = '^{}\\[~]|€\f'

/** The encoding and the number of parts of `text`. */
export function smsParts(text: string): { encoding: 'GSM-7' | 'UCS-2'; length: number; parts: number } {
  let septets = 0
  for (const ch of text) {
    if (GSM_BASIC.includes(ch)) septets += 1
    else if (GSM_EXTENSION.includes(ch)) septets += 2
    else {
      // UTF-16 code units: a character outside the BMP takes two
      const units = text.length
      return { encoding: 'UCS-2', length: units, parts: units <= 70 ? 1 : Math.ceil(units / 67) }
    }
  }
  return { encoding: 'GSM-7', length: septets, parts: septets <= 160 ? 1 : Math.ceil(septets / 153) }
}
