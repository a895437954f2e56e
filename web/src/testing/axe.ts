import axe from 'axe-core';

/**
 * The serious and critical axe violations in `node`, as "rule: target" lines (empty when clean).
 * jsdom does no layout, so colour contrast is left to the e2e run in Chromium.
 */
export async function seriousViolations(node: Element): Promise<string[]> {
  const results = await axe.run(node, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}
