import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';

import { resultCsv } from './export-results';

describe('discovery CSV export', () => {
  it('quotes what needs quoting and keeps spreadsheet formulas from running', () => {
    const csv = resultCsv({
      companies: [
        { id: 'c1', name: 'Baths, "Best" & Co', city: 'Dallas', state: 'TX', score: 81, isNew: true },
        { id: 'c2', name: '=HYPERLINK("http://evil")', city: null, state: 'LA', score: 40, isNew: false },
      ],
      contacts: [
        { id: 'p1', companyId: 'c1', firstName: 'Ana', lastName: 'Reyes', title: 'CEO', score: 90, isNew: true },
        { id: 'p2', companyId: 'c1', firstName: 'Bo', lastName: 'King', title: null, score: 60, isNew: true },
      ],
      marketIntelligence: null,
      territoryInsights: null,
      budgetExhausted: false,
    });
    const rows = Papa.parse<string[]>(csv.trim()).data;
    expect(rows[0]).toEqual(['Company', 'City', 'State', 'Score', 'Contacts']);
    expect(rows[1]).toEqual(['Baths, "Best" & Co', 'Dallas', 'TX', '81', 'Ana Reyes (CEO); Bo King']);
    expect(rows[2]?.[0]).toBe('\'=HYPERLINK("http://evil")');
    expect(rows[2]?.[1]).toBe('');
  });
});
