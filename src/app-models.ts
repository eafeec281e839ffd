/**
 * The app-wide models, made once for the running app: the passenger's session, the UI's notices and language, and
 * the lookup lists. main.tsx loads them at start; pages and the shell read them and pass them to the models a page
 * visit makes. Tests make their own instances instead.
 */
import { LookupsModel } from './models/lookups.ts'
import { SessionModel } from './models/session.ts'
import { UiModel } from './models/ui.ts'

/** The session of the running app. */
export const session = new SessionModel()
/** The UI state of the running app. */
export const ui = new UiModel()
/** The lookup lists of the running app. */
export const lookups = new LookupsModel()
