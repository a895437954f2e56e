import type { DupRecord, paths } from '@/types/openapi.gen';

/** What is merged: a company or a contact (docs/merge.md). */
export type MergeRecordType = 'company' | 'contact';

/** The kinds of duplicate: companies by website, phone, name and city; contacts by email, phone, name. */
export type DuplicateReason = 'domain' | 'phone' | 'name' | 'email';

/** A record as the Duplicates screen and the record pages' notice show it (`href`: its page's root path). */
export type DuplicateRecord = DupRecord;

/** One suggestion: records that share a key, and why (`count`: how many share it; `records` lists at most 25). */
export type DuplicateGroup = paths['/api/duplicates']['get']['responses'][200]['content']['application/json'][number];

/** A record that may be the same as the one on the page. */
export type PossibleDuplicate = paths['/api/companies/{id}/duplicates']['get']['responses'][200]['content']['application/json'][number];

/** `POST /api/merge`: the survivor, how many records went into it and what moved. */
export type MergeOutcome = paths['/api/merge']['post']['responses'][200]['content']['application/json'];

/** The reasons of each record type, as the filter offers them. */
export const REASONS: Record<MergeRecordType, readonly (readonly [DuplicateReason, string])[]> = {
  company: [
    ['domain', 'Same website'],
    ['phone', 'Same phone'],
    ['name', 'Same name and city'],
  ],
  contact: [
    ['email', 'Same email'],
    ['phone', 'Same phone'],
    ['name', 'Same name at the same company'],
  ],
};
