/** The app's amounts: the rule of contract/money.ts, shared with the server's SMS and e-mails. */
export { formatMoney } from '../../contract/money.ts'
