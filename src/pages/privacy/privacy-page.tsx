import { LegalText } from '../../parts/legal-text.tsx'

/** Privacy policy. */
export default function PrivacyPage() {
  return <LegalText scope="privacy" sections={7} />
}
