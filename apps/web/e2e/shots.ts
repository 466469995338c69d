import { type Page, test } from '@playwright/test';

/**
 * Screenshots of what `page` shows now at 360 px and at desktop width, light and dark, into the
 * test's output folder (to look at: a screen is done when it looks right in all four). A dialog is
 * shot as the viewport shows it (`fullPage: false`): its backdrop covers the viewport only.
 */
export async function screenshots(page: Page, name: string, { fullPage = true } = {}) {
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    for (const dark of [false, true]) {
      await page.evaluate((on) => document.body.classList.toggle('dark-mode', on), dark);
      await page.screenshot({
        path: test.info().outputPath(`${name}-${width}-${dark ? 'dark' : 'light'}.png`),
        fullPage,
        animations: 'disabled',
      });
    }
  }
  await page.evaluate(() => document.body.classList.remove('dark-mode'));
  await page.setViewportSize(size);
}
