import { describe, expect, it } from 'vitest';

import { jobKindLabel } from './kind-labels';

describe('jobKindLabel', () => {
  it('names known kinds in plain words and never shows snake_case', () => {
    expect(jobKindLabel('bulk_campaign_send')).toBe('Bulk campaign send');
    expect(jobKindLabel('noop')).toBe('Test job');
    expect(jobKindLabel('discovery_scan')).toBe('Discovery scan');
  });

  it('turns an unknown kind into words', () => {
    expect(jobKindLabel('nightly_report_export')).toBe('Nightly report export');
  });
});
