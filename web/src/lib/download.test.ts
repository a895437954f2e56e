import { describe, expect, it } from 'vitest';

import { fileNameFrom } from './download';

describe('fileNameFrom', () => {
  it("reads the server's file name from Content-Disposition", () => {
    expect(fileNameFrom('attachment; filename="contacts-export.csv"')).toBe('contacts-export.csv');
    expect(fileNameFrom("attachment; filename*=UTF-8''pipeline%20export.csv")).toBe('pipeline export.csv');
    expect(fileNameFrom(null)).toBeNull();
    expect(fileNameFrom('inline')).toBeNull();
  });
});
