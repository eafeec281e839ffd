/**
 * The app's one trip search, made when its code first loads (the home or results page, or a results link at
 * start) and kept while the app runs: the form keeps what the passenger chose between pages. Not in the entry's file.
 */
import { ui } from '../app-models.ts'
import { SearchModel } from '../models/search.ts'

/** The app's trip search (src/models/search.ts). */
export const appSearch = new SearchModel(ui)
