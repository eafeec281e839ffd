import { startTestApp } from './helpers.ts';
const t = await startTestApp();
for (const u of ['/dev/outbox?to=%00', '/dev/outbox?to=a%00b', '/dev/outbox?to=%ED%A0%80', '/dev/outbox?to=' + 'x'.repeat(300), '/sandbox/gateway/%00', '/sandbox/gateway/' + 'a'.repeat(200)]) {
  const r = await t.call('GET', u); console.log('GET', u.slice(0, 60), r.status, r.text.slice(0, 120));
}
const r = await t.call('POST', '/sandbox/gateway/%00', { raw: 'decision=approve', headers: { 'content-type': 'application/x-www-form-urlencoded' } }); console.log('POST gateway %00', r.status, r.text.slice(0, 100));
await t.close();
