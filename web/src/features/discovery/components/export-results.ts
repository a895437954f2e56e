import Papa from 'papaparse';

import type { ScanResult } from './scan-progress';

/** Text a spreadsheet would run as a formula is quoted with a leading apostrophe. */
const cell = (v: string | number | null) => {
  const s = v === null ? '' : String(v);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
};

/** The scan's companies as CSV, one row per company with its contacts' names. */
export function resultCsv(result: ScanResult): string {
  return Papa.unparse({
    fields: ['Company', 'City', 'State', 'Score', 'Contacts'],
    data: result.companies.map((c) => [
      cell(c.name),
      cell(c.city),
      cell(c.state),
      c.score,
      cell(
        result.contacts
          .filter((p) => p.companyId === c.id)
          .map((p) => `${p.firstName} ${p.lastName}${p.title ? ` (${p.title})` : ''}`)
          .join('; '),
      ),
    ]),
  });
}

export function downloadResultCsv(result: ScanResult): void {
  const href = URL.createObjectURL(new Blob([resultCsv(result)], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = href;
  link.download = `discovery-${new Date().toISOString().slice(0, 10)}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(href);
}
