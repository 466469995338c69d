import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type { AxeResults, RunOnly } from 'axe-core';

/** The WCAG 2.x A and AA rules, experimental ones included (label-content-name-mismatch is one). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** What dark mode can change: it only swaps colours. */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

declare global {
  interface Window {
    axe: { run: (context: Document, options: object) => Promise<AxeResults> };
  }
}

/** axe-core's script, put in a page once per document (injecting it for every check cost 0.5 s each). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The serious and critical violations on the page as it is now, one line each (rule, impact, the
 * elements); WCAG_TAGS unless `rules` narrows the check.
 */
export async function seriousViolations(page: Page, rules?: string[]): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const runOnly: RunOnly = rules ? { type: 'rule', values: rules } : { type: 'tag', values: WCAG_TAGS };
  // Only violations are read: axe then skips collecting every passing node.
  const violations = await page.evaluate(
    async (only) =>
      (await window.axe.run(document, { runOnly: only, resultTypes: ['violations'] })).violations,
    runOnly,
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
