/** POST /reservation/contactUs */
import type { BodyOf, ResponseOf } from '../../contract/api.ts'
import { call } from './client.ts'

/** The contact form as the API takes it. */
export type ContactRequest = BodyOf<'contactUs'>

/** Sends a contact message; resolves with the stored message id. */
export const sendContactMessage = (body: ContactRequest): Promise<ResponseOf<'contactUs'>> =>
  call('contactUs', { body })
