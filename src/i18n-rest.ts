/**
 * The English messages of every scope that is not core (pages other than the
 * home page). The build bundles only those here; src/i18n.ts has the core.
 */
import rest from '../locales/en.json'

export default rest as Record<string, string>
