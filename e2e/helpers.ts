/** Shared helpers for the browser tests: the axe check and the app's routes. */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { routes } from '../src/routes.ts';

/** Every route of SPEC section 2 that a visitor can open directly (the app's route table, restricted ones left out). */
export const publicRoutes = routes.filter((r) => !r.restricted).map((r) => r.path);

/** Runs axe with the WCAG 2.0/2.1/2.2 A and AA rules and expects no violations. */
export async function expectNoAxeViolations(page: Page, label = page.url()): Promise<void> {
  // a frame mid-animation (toasts sliding in over each other) is not what anyone uses
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5_000 }).catch(() => undefined);
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'])
    .analyze();
  const summary = result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes[0]?.target.join(' ')} — ${v.help}`);
  expect(summary, `axe violations on ${label}`).toEqual([]);
}

/** Waits until the live app has rendered its first page (not the prerendered HTML). */
export async function appReady(page: Page): Promise<void> {
  await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
}

/** Waits until the live app shows the page's h1 and returns it. */
export async function pageHeading(page: Page) {
  await appReady(page);
  const h1 = page.locator('main h1').first();
  await expect(h1).toBeVisible();
  return h1;
}

/** Switches the app language with the header control. */
export async function switchLanguage(page: Page, lang: 'en' | 'bn'): Promise<void> {
  await page.evaluate((l) => sessionStorage.setItem('language', l), lang);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}
