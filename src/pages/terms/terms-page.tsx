import { LegalText } from '../../parts/legal-text.tsx'

/** Terms and conditions. */
export default function TermsPage() {
  return <LegalText scope="terms" sections={8} />
}
