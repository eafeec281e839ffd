#!/usr/bin/env node
// npm test: typecheck, build, unit tests (uvu), server tests (uvu), browser tests
// (Playwright in Debian Chromium against the real server), then one summary line
// `N passed, N failed`. Pass a step name to run only that: `npm test -- unit e2e`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const only = process.argv.slice(2);
const uvu = ['--import', 'tsx', 'node_modules/uvu/bin.js'];
let passed = 0;
let failed = 0;
const lines = [];

function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => { out += d; process.stdout.write(d); });
    child.stderr.on('data', (d) => { out += d; process.stderr.write(d); });
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');

function uvuCounts(out) {
  const t = strip(out);
  const total = [...t.matchAll(/Total:\s+(\d+)/g)].reduce((a, m) => a + Number(m[1]), 0);
  const ok = [...t.matchAll(/Passed:\s+(\d+)/g)].reduce((a, m) => a + Number(m[1]), 0);
  return { ok, bad: total - ok };
}

const steps = {
  async typecheck() {
    // styled-system/ is generated (git-ignored): a clean clone has none until Panda runs
    const r = await run('npm', ['run', '--silent', 'typecheck']);
    return r.code === 0 ? { ok: 1, bad: 0 } : { ok: 0, bad: 1 };
  },
  async build() {
    const r = await run('node', ['build.mjs']);
    return r.code === 0 ? { ok: 1, bad: 0 } : { ok: 0, bad: 1 };
  },
  async unit() {
    let ok = 0;
    let bad = 0;
    for (const dir of ['contract', 'src', 'design-system', 'locales']) {
      if (!fs.existsSync(path.join(root, dir))) continue;
      const r = await run('node', [...uvu, dir, '\\.test\\.ts$']);
      const c = uvuCounts(r.out);
      ok += c.ok;
      bad += c.bad + (r.code !== 0 && c.bad === 0 ? 1 : 0);
    }
    return { ok, bad };
  },
  async server() {
    const r = await run('node', [...uvu, 'server/test', '\\.test\\.ts$'], { NODE_ENV: 'test' });
    const c = uvuCounts(r.out);
    return { ok: c.ok, bad: c.bad + (r.code !== 0 && c.bad === 0 ? 1 : 0) };
  },
  async e2e() {
    const report = path.join(root, 'test-results', 'e2e.json');
    fs.rmSync(report, { force: true });
    const r = await run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']);
    if (!fs.existsSync(report)) return { ok: 0, bad: 1 };
    const s = JSON.parse(fs.readFileSync(report, 'utf8')).stats ?? {};
    const bad = (s.unexpected ?? 0) + (r.code !== 0 && !s.unexpected ? 1 : 0);
    return { ok: (s.expected ?? 0) + (s.flaky ?? 0), bad };
  },
  // The booking journey again, with the server on a real PostgreSQL server.
  async 'e2e-pg'() {
    const report = path.join(root, 'test-results', 'e2e-pg.json');
    fs.rmSync(report, { force: true });
    const r = await run('node', ['--import', 'tsx', 'e2e/on-postgres.ts'], { E2E_REPORT: report });
    if (/SKIPPED: browser journey on PostgreSQL/.test(r.out)) return { ok: 0, bad: 0 };
    if (!fs.existsSync(report)) return { ok: 0, bad: 1 };
    const s = JSON.parse(fs.readFileSync(report, 'utf8')).stats ?? {};
    const bad = (s.unexpected ?? 0) + (r.code !== 0 && !s.unexpected ? 1 : 0);
    return { ok: (s.expected ?? 0) + (s.flaky ?? 0), bad };
  },
};

for (const [name, step] of Object.entries(steps)) {
  if (only.length && !only.includes(name)) continue;
  console.log(`\n=== ${name} ===`);
  const t0 = Date.now();
  const { ok, bad } = await step();
  passed += ok;
  failed += bad;
  lines.push(`${name}: ${ok} passed, ${bad} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
console.log('\n' + lines.join('\n'));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
