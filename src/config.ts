/**
 * Runtime configuration from /config.js (`window.__APP_CONFIG__`), which
 * operators edit without rebuilding, with defaults for anything missing.
 */
export interface AppConfig {
  /** Base of every API path. */
  apiBaseUrl: string
  /** Help line shown in the header and on the contact page. */
  supportPhone: string
  /** Support e-mail address shown in the header. */
  supportEmail: string
  /** Facebook Messenger chat link (m.me). */
  messengerUrl: string
  facebookUrl: string
  youtubeUrl: string
  instagramUrl: string
  /**
   * The service worker (repeat visits without the network, saved pages offline,
   * the new-version notice). `false` turns it off and removes one installed before.
   */
  serviceWorker: boolean
}

declare global {
  interface Window {
    __APP_CONFIG__?: Partial<AppConfig>
  }
}

const defaults: AppConfig = {
  apiBaseUrl: '/api',
  supportPhone: '+8809610001122',
  supportEmail: 'support@nodiexpress.com.bd',
  messengerUrl: 'https://m.me/nodiexpress',
  facebookUrl: 'https://www.facebook.com/nodiexpress',
  youtubeUrl: 'https://www.youtube.com/@nodiexpress',
  instagramUrl: 'https://www.instagram.com/nodiexpress',
  serviceWorker: true,
}

/** The merged configuration (read once). */
export const config: AppConfig = {
  ...defaults,
  ...(typeof window !== 'undefined' ? window.__APP_CONFIG__ : undefined),
}

/** A phone number for display in the page's digits: "+8809610001122" → "09610-001122" (bn: "০৯৬১০-০০১১২২"). */
export function displayPhone(phone: string, lang: 'en' | 'bn' = 'en'): string {
  const local = phone.replace(/^\+?880/, '0').replace(/\D/g, '')
  const shown = local.length === 11 ? `${local.slice(0, 5)}-${local.slice(5)}` : phone
  // written out here: the shell's first render shows the number, and the date rules that have localizeDigits are not in it
  return lang === 'bn' ? shown.replace(/\d/g, (d) => '০১২৩৪৫৬৭৮৯'[Number(d)]!) : shown
}
