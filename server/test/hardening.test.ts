/**
 * Cross-cutting protections of the API, each tried the way an attacker or a careless
 * proxy would: bodies another site's form can send, caching of personal data, and
 * secrets in the logs.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { count, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
test.before(async () => {
  t = await startTestApp({ daysAhead: 2 });
});
test.after(async () => {
  await t.close();
});

const contact = { name: 'Sadia Islam', email: 'sadia@example.com', subject: 'Lost bag', message: 'I left a bag on coach 101.' };

test('cross-site form posts: urlencoded, multipart and text/plain bodies are refused with 415 on every API route; nothing is stored', async () => {
  const before = [await count(t.db, 'contact_messages'), await count(t.db, 'registrations'), await count(t.db, 'outbox_messages')];
  const form = new URLSearchParams(contact).toString();
  const bodies: [string, string][] = [
    ['application/x-www-form-urlencoded', form],
    ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nSadia\r\n--x--\r\n`],
    ['text/plain', JSON.stringify(contact)],
  ];
  for (const url of ['/api/reservation/contactUs', '/api/register', '/api/checkPassenger', '/api/reservation/seatLock']) {
    for (const [type, payload] of bodies) {
      const r = await t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': type } });
      assert.is(r.statusCode, 415, `${url} ${type}: ${r.body}`);
      assert.is(r.json().error.code, 'VALIDATION_FAILED');
    }
  }
  const after = [await count(t.db, 'contact_messages'), await count(t.db, 'registrations'), await count(t.db, 'outbox_messages')];
  assert.equal(after, before);
  // the same message as JSON is accepted
  const ok = await t.app.inject({ method: 'POST', url: '/api/reservation/contactUs', payload: contact });
  assert.is(ok.statusCode, 200, ok.body);
});

test.run();
