import type { Locator, Page } from 'playwright-core';

/**
 * Chooses an entity in an entity search field (web/src/catalog/entity-search-field.tsx): types
 * `text` into the field labelled `label` and clicks the match whose name is `name`.
 */
export async function chooseEntity(scope: Page | Locator, label: string, text: string, name: string) {
  await scope.getByLabel(label, { exact: true }).fill(text);
  await scope
    .getByRole('list', { name: `${label}: matches` })
    .getByRole('button', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`) })
    .click();
}
