import type { Page } from 'playwright-core';
import type { RunStep } from '../browser-run-wire.ts';

/**
 * One browser step on a page (run in the browser runner's child only: it is what drives
 * playwright-core). Resolves when the step passed; throws an Error saying why it failed.
 */
export async function runPageStep(page: Page, step: RunStep, timeout: number): Promise<void> {
  switch (step.action) {
    case 'goto': {
      const response = await page.goto(step.url ?? '', { timeout, waitUntil: 'load' });
      if (response && response.status() >= 400) throw new Error(`the page answered ${response.status()}`);
      return;
    }
    case 'click':
      return page
        .locator(step.selector ?? '')
        .first()
        .click({ timeout });
    case 'fill':
      return page
        .locator(step.selector ?? '')
        .first()
        .fill(step.value ?? '', { timeout });
    case 'press':
      if (step.selector === undefined) return page.keyboard.press(step.value ?? '');
      return page
        .locator(step.selector)
        .first()
        .press(step.value ?? '', { timeout });
    case 'select':
      await page
        .locator(step.selector ?? '')
        .first()
        .selectOption(step.value ?? '', { timeout });
      return;
    case 'wait_for':
      if (step.url !== undefined) {
        const part = step.url;
        return void (await page.waitForURL((u) => u.href.includes(part), { timeout }));
      }
      return step.text !== undefined
        ? page.getByText(step.text).first().waitFor({ timeout })
        : page
            .locator(step.selector ?? '')
            .first()
            .waitFor({ timeout });
    case 'assert':
      return assertOn(page, step, timeout);
    case 'screenshot':
      return;
  }
}

/** An assert step: text shown (in the page or the selector), the title, the URL, or a count. */
async function assertOn(page: Page, step: RunStep, timeout: number): Promise<void> {
  const expected = step.text ?? '';
  switch (step.subject) {
    case 'text': {
      const scope = step.selector === undefined ? page.locator('body') : page.locator(step.selector).first();
      // biome-ignore lint/performance/useDomNodeTextContent: the text the page shows (hidden text is not shown)
      const shown = await scope.innerText({ timeout });
      if (!shown.includes(expected)) throw new Error(`the page does not show "${expected}"`);
      return;
    }
    case 'title': {
      const title = await page.title();
      if (!title.includes(expected)) throw new Error(`the title is "${title}", not one with "${expected}"`);
      return;
    }
    case 'url': {
      const url = page.url();
      if (!url.includes(step.url ?? '')) throw new Error(`the URL is ${url}, not one with "${step.url}"`);
      return;
    }
    case 'count': {
      const count = await page.locator(step.selector ?? '').count();
      const want = step.count ?? 0;
      const op = step.op ?? 'eq';
      const ok = op === 'eq' ? count === want : op === 'gte' ? count >= want : count <= want;
      const words = { eq: '', gte: 'at least ', lte: 'at most ' }[op];
      if (!ok) throw new Error(`${step.selector} matches ${count} elements, not ${words}${want}`);
      return;
    }
    default:
      throw new Error('assert takes a subject: text, title, url or count');
  }
}
