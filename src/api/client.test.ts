import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, call, configureApi } from './client.ts';

type Seen = { url: string; init: RequestInit };

function fakeFetch(respond: (seen: Seen) => Response | Promise<Response>, log: Seen[] = []) {
  return (async (url: string, init: RequestInit) => {
    const seen = { url, init };
    log.push(seen);
    return respond(seen);
  }) as unknown as typeof fetch;
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

let unauthorized: string[] = [];
function setup(parts: Parameters<typeof configureApi>[0] = {}) {
  unauthorized = [];
  configureApi({
    baseUrl: () => 'https://api.example.test/api/',
    token: () => null,
    deviceId: () => 'device-1234567890',
    language: () => 'bn',
    currentPath: () => '/search?from=DHK',
    onUnauthorized: (p) => void unauthorized.push(p),
    timeoutMs: 60_000,
    ...parts,
  });
}

test('sends Accept JSON, device id, no bearer without a token, and returns data', async () => {
  const log: Seen[] = [];
  setup({ fetch: fakeFetch(() => json(200, { data: [{ code: 'DHK', name: 'Dhaka', nameBn: 'ঢাকা' }] }), log) });
  const cities = await call('originCities');
  assert.equal(cities[0].code, 'DHK');
  assert.is(log[0].url, 'https://api.example.test/api/originCities');
  const h = log[0].init.headers as Record<string, string>;
  assert.is(h.Accept, 'application/json');
  assert.is(h['X-Device-Id'], 'device-1234567890');
  assert.is(h['Accept-Language'], 'bn', 'the app language, so ticket e-mails and SMS follow it');
  assert.is(h.Authorization, undefined);
  assert.is(log[0].init.method, 'GET');
});

test('adds the bearer header when a token is stored, JSON body, path params encoded', async () => {
  const log: Seen[] = [];
  setup({ token: () => 'tok123', fetch: fakeFetch(() => json(200, { data: true }), log) });
  await call('resendReservationEmail', { params: { pnr: 'AB/1', pin: '1234' } });
  assert.is((log[0].init.headers as Record<string, string>).Authorization, 'Bearer tok123');
  assert.is(log[0].url, 'https://api.example.test/api/reservation/resendReservationEmail/AB%2F1/1234');
  await call('tripSearch', { body: { originCode: 'DHK', destinationCode: 'CTG', tripDate: '2026-11-22' } });
  assert.is(log[1].init.method, 'POST');
  assert.equal(JSON.parse(String(log[1].init.body)), { originCode: 'DHK', destinationCode: 'CTG', tripDate: '2026-11-22' });
  assert.is((log[1].init.headers as Record<string, string>)['Content-Type'], 'application/json');
});

test('passes the server error code and reason through', async () => {
  setup({ fetch: fakeFetch(() => json(409, { error: { code: 'SEAT_UNAVAILABLE', reason: 'These seats are NOT available' } })) });
  try {
    await call('offers');
    assert.unreachable();
  } catch (e) {
    assert.instance(e, ApiError);
    assert.is((e as ApiError).code, 'SEAT_UNAVAILABLE');
    assert.is((e as ApiError).reason, 'These seats are NOT available');
    assert.is((e as ApiError).status, 409);
  }
  assert.equal(unauthorized, []);
});

test('message values sent with an error (minutes to wait, a limit) are kept on the ApiError', async () => {
  setup({
    fetch: fakeFetch(() =>
      json(429, { error: { code: 'TOO_MANY_ATTEMPTS', reason: 'Too many wrong PINs for this PNR. Try again in 12 minutes.', values: { minutes: 12 } } }),
    ),
  });
  const e = await call('offers').then(
    () => null,
    (err: unknown) => err,
  );
  assert.instance(e, ApiError);
  assert.is((e as ApiError).code, 'TOO_MANY_ATTEMPTS');
  assert.equal((e as ApiError).values, { minutes: 12 });
});

test('times out after the configured time with a clear error', async () => {
  setup({
    timeoutMs: 20,
    fetch: ((_u: string, init: RequestInit) =>
      new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))) as unknown as typeof fetch,
  });
  try {
    await call('offers');
    assert.unreachable();
  } catch (e) {
    assert.is((e as ApiError).code, 'REQUEST_TIMEOUT');
    assert.match((e as ApiError).reason, /too long/);
  }
});

test('the default time-out is 60 seconds', async () => {
  const { REQUEST_TIMEOUT_MS } = await import('./client.ts');
  assert.is(REQUEST_TIMEOUT_MS, 60_000);
});

test('a network failure becomes NO_INTERNET_CONNECTION', async () => {
  setup({ fetch: (async () => { throw new TypeError('Failed to fetch'); }) as unknown as typeof fetch });
  try {
    await call('offers');
    assert.unreachable();
  } catch (e) {
    assert.is((e as ApiError).code, 'NO_INTERNET_CONNECTION');
  }
});

test('a 401 outside the login page triggers the session reset with the current path', async () => {
  setup({ fetch: fakeFetch(() => json(401, { error: { code: 'INVALID_SESSION', reason: 'Invalid session. Please login again.' } })) });
  await call('profile', { params: { id: 1 } }).catch((e: ApiError) => assert.is(e.code, 'INVALID_SESSION'));
  assert.equal(unauthorized, ['/search?from=DHK']);
});

test('a 401 on the login page does not reset (wrong password answers stay on the page)', async () => {
  setup({
    currentPath: () => '/login',
    fetch: fakeFetch(() => json(401, { error: { code: 'BAD_CREDENTIALS', reason: 'Invalid Credentials' } })),
  });
  await call('login', { body: { mobile: '01712345678', password: 'x' } }).catch((e: ApiError) => assert.is(e.code, 'BAD_CREDENTIALS'));
  assert.equal(unauthorized, []);
});

test('a call that expects a 401 (LOGOUT with an expired token) does not reset the session', async () => {
  setup({ fetch: fakeFetch(() => json(401, { error: { code: 'INVALID_SESSION', reason: 'Invalid session. Please login again.' } })) });
  await call('logout', { ignoreUnauthorized: true }).catch((e: ApiError) => assert.is(e.code, 'INVALID_SESSION'));
  assert.equal(unauthorized, []);
});

test('a body without data is an error, not undefined', async () => {
  setup({ fetch: fakeFetch(() => new Response('<html>', { status: 200 })) });
  await call('offers').then(
    () => assert.unreachable(),
    (e: ApiError) => assert.is(e.code, 'INTERNAL_ERROR'),
  );
});

test.run();
