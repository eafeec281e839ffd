/**
 * Cross-cutting protections of the API, each tried the way an attacker or a careless
 * proxy would: bodies another site's form can send, caching of personal data, and
 * secrets in the logs.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Writable } from 'node:stream';
import { buildApp } from '../app.ts';
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

test('personal data is never cached: every API answer says Cache-Control: no-store', async () => {
  const s = await t.signUp('01912000001');
  const id = s.passenger.id;
  const urls: [string, string, unknown?][] = [
    ['POST', '/api/checkPassenger', { mobile: '01912000001', password: 'Secret@123' }],
    ['GET', `/api/profile/${id}`],
    ['GET', `/api/account/${id}`],
    ['GET', '/api/reservations'],
    ['GET', '/api/reservation/details/ABCDEFGHJK/1234'],
    ['GET', '/api/reservation/details/999999'],
    ['GET', '/api/originCities'],
  ];
  for (const [method, url, body] of urls) {
    const r = await t.call(method, url, { token: s.token, ...(body ? { body } : {}) });
    assert.ok(r.status < 500, url);
    assert.is(r.headers['cache-control'], 'no-store', `${method} ${url}`);
  }
});

test('logs never hold PNRs, PINs, codes, registration tokens or mobile numbers, at any level', async () => {
  let log = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      log += chunk.toString();
      done();
    },
  });
  const app = await buildApp(t.deps, { logLevel: 'trace', logStream: sink, distDir: '/nonexistent', rateLimitMax: 1_000_000, authRateLimitMax: 1_000_000 });
  try {
    const secrets = { pnr: 'QQZXWVYTUP', pin: '8642', otp: '975310', token: 'RegTok_very-secret-value_0123456789abcdefghij', mobile: '01987654321' };
    const urls = [
      `/api/reservation/details/${secrets.pnr}/${secrets.pin}`,
      `/api/reservation/cancelInitialize/${secrets.pnr}/${secrets.pin}`,
      `/api/reservation/cancel/${secrets.pnr}/${secrets.pin}/${secrets.otp}`,
      `/api/reservation/resendReservationEmail/${secrets.pnr}/${secrets.pin}`,
      `/api/resendMobileVerificationCode/${secrets.token}`,
      `/api/getPassengerByMobile/${secrets.mobile}`,
      `/api/reservation/details/${secrets.pnr}/${secrets.pin}?pin=${secrets.pin}`,
    ];
    for (const url of urls) await app.inject({ method: 'GET', url });
    await app.inject({ method: 'POST', url: '/api/verifyMobileVerificationCode', payload: { mobile: secrets.mobile, code: secrets.otp, registrationToken: secrets.token } });
    assert.ok(log.includes('/api/reservation/details/[redacted]/[redacted]'), 'requests are still logged');
    for (const [name, value] of Object.entries(secrets)) assert.not.ok(log.includes(value), `${name} in the log`);
    assert.not.ok(log.includes(`/${secrets.pin}`), 'PIN in a logged path');
  } finally {
    await app.close();
  }
});

test.run();
