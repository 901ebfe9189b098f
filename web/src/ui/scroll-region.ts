/**
 * Props for a box that scrolls sideways (a wide table on a phone): keyboard users must be able to
 * focus it to scroll it, and a focusable box needs a name (axe: scrollable-region-focusable).
 */
export function scrollRegion(label: string): { tabIndex: 0; role: 'region'; 'aria-label': string } {
  return { tabIndex: 0, role: 'region', 'aria-label': label };
}
