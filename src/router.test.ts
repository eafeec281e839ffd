import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { readFileSync } from 'node:fs'
import { normalizePath, resolvePath } from './router.ts'
import { routes } from './routes.ts'

const en = JSON.parse(readFileSync(new URL('../locales/en.json', import.meta.url), 'utf8')) as Record<string, string>

test('every SPEC route resolves', () => {
  for (const p of [
    '/',
    '/home',
    '/search',
    '/locations',
    '/contact-us',
    '/faq',
    '/terms-and-conditions',
    '/privacy-policy',
    '/reservation',
    '/reservation/success',
    '/reservation/failure',
    '/ticket-operation',
    '/profile',
    '/login',
    '/error/401',
    '/error/403',
    '/error/404',
    '/error/500',
  ]) {
    const r = resolvePath(p, true)
    assert.is(r.kind, 'route', p)
  }
})

test('unknown paths and unknown /error/... go to /error/404', () => {
  assert.equal(resolvePath('/nope', false), { kind: 'redirect', to: '/error/404' })
  assert.equal(resolvePath('/error/418', false), { kind: 'redirect', to: '/error/404' })
  assert.equal(resolvePath('/error/404/x', false), { kind: 'redirect', to: '/error/404' })
})

test('trailing slashes and query strings are ignored', () => {
  assert.is(normalizePath('/faq/'), '/faq')
  assert.is(normalizePath('/search?originCode=DHK'), '/search')
  assert.is(normalizePath(''), '/')
})

test('only /profile is restricted; every title id exists', () => {
  for (const r of routes) {
    assert.is(r.restricted, r.path === '/profile', r.path)
    assert.ok(en[r.titleId], r.titleId)
  }
})

test('a visitor on a restricted route goes to /login and the path is remembered', () => {
  assert.equal(resolvePath('/profile', false), { kind: 'redirect', to: '/login', remember: '/profile' })
  assert.equal(resolvePath('/profile/', true), { kind: 'route', route: routes.find((r) => r.path === '/profile')! })
})

test.run()
