import { test } from '@playwright/test'
import { expectNoAxeViolations, pageHeading, publicRoutes } from './helpers.ts'

// The sweep of every route in both languages at a phone and a desktop width.
for (const lang of ['en', 'bn'] as const) {
  for (const width of [375, 1280]) {
    test(`axe: every route, ${lang}, ${width}px`, async ({ page }) => {
      test.setTimeout(180_000)
      await page.setViewportSize({ width, height: 900 })
      await page.goto('/faq')
      await page.evaluate((l) => sessionStorage.setItem('language', l), lang)
      for (const route of publicRoutes) {
        await page.goto(route)
        await pageHeading(page)
        await page.waitForLoadState('networkidle')
        await expectNoAxeViolations(page, `${route} (${lang}, ${width}px)`)
      }
    })
  }
}
