/**
 * The build-time prerender (src/prerender.tsx, written by build.mjs into each route's
 * `<path>.html`): every route's HTML holds its page's heading, so the largest text a
 * passenger sees first is there before any JavaScript runs.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import en from '../locales/en.json'
import { prerender } from './prerender.tsx'
import { routes } from './routes.ts'

const messages: Record<string, string> = en
const h1s = (html: string) => [...html.matchAll(/<h1[^>]*>(.*?)<\/h1>/gs)].map((m) => m[1]!.replace(/<[^>]+>/g, ''))
const plainText = (s: string) => s.replaceAll('&#x27;', "'").replaceAll('&amp;', '&')

for (const r of routes) {
  test(`${r.path}: its HTML holds the page's one heading`, async () => {
    // every page's heading is the message next to its title (home.title → home.heading, errorPage.title404 → errorPage.heading404)
    const heading = messages[r.titleId.replace('.title', '.heading')]
    assert.ok(heading, `no heading message for ${r.titleId}`)
    const html = await prerender(r.path)
    assert.equal(h1s(html).map(plainText), [heading])
    // in place: no part left for an inline script to move in (the CSP allows none, and without JavaScript none runs)
    assert.not.ok(/<template|<script/.test(html))
  })
}

test('pages that need a trip or a payment show what such a visit shows before the server answers', async () => {
  const paid = await prerender('/reservation/success')
  assert.ok(paid.includes(messages['payment.confirming']!))
  assert.not.ok(paid.includes(messages['payment.nothingToShow']!))
  assert.not.ok((await prerender('/reservation')).includes(messages['seatChoice.noTrip']!))
})

test('the forms of /login and /ticket-operation are in their HTML, with their text', async () => {
  const login = await prerender('/login')
  for (const id of ['login.intro', 'login.mobile', 'login.continue']) assert.ok(login.includes(messages[id]!), id)
  const ticket = await prerender('/ticket-operation')
  for (const id of ['ticket.findIntro', 'ticket.pnr', 'ticket.pin', 'ticket.find']) assert.ok(ticket.includes(messages[id]!), id)
})

test("/profile's HTML is the page's frame: its sections, no passenger's details", async () => {
  const html = await prerender('/profile')
  for (const id of ['profile.detailsTitle', 'profile.accountTitle', 'profile.ticketsTitle']) assert.ok(html.includes(messages[id]!), id)
  // the details form (name, e-mail, city) only exists with a passenger's record
  assert.not.ok(html.includes('name="fullName"'))
})

test('the fallback shell (null) has the header and footer and no page', async () => {
  const html = await prerender(null)
  assert.ok(html.includes('<header'))
  assert.ok(html.includes('<footer'))
  assert.equal(h1s(html), [])
})

test.run()
