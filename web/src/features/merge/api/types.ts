import { isOneOf } from '@/lib/guards';
import type { DupRecord, MergeBulkBody, paths } from '@/types/openapi.gen';

/** What is merged: a company or a contact (docs/merge.md). */
export type MergeRecordType = MergeBulkBody['recordType'];

/** The kinds of duplicate: companies by website, phone, name and city; contacts by email, phone, name. */
export type DuplicateReason = MergeBulkBody['reason'];

/** One record type's kind of duplicate, as `POST /api/merge/bulk` takes it. */
export type DuplicateKind<T extends MergeRecordType = MergeRecordType> = Extract<MergeBulkBody, { recordType: T }>;

/** A record as the Duplicates screen and the record pages' notice show it (`href`: its page's root path). */
export type DuplicateRecord = DupRecord;

/** One suggestion: records that share a key, and why (`count`: how many share it; `records` lists at most 25). */
export type DuplicateGroup = paths['/api/duplicates']['get']['responses'][200]['content']['application/json'][number];

/** A record that may be the same as the one on the page. */
export type PossibleDuplicate = paths['/api/companies/{id}/duplicates']['get']['responses'][200]['content']['application/json'][number];

/** `POST /api/merge`: the survivor, how many records went into it and what moved. */
export type MergeOutcome = paths['/api/merge']['post']['responses'][200]['content']['application/json'];

/** The reasons of each record type, as the filter offers them. */
export const REASONS = {
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
} as const satisfies { [T in MergeRecordType]: readonly (readonly [DuplicateKind<T>['reason'], string])[] };

const COMPANY_REASONS = REASONS.company.map(([reason]) => reason);
const CONTACT_REASONS = REASONS.contact.map(([reason]) => reason);

/** The kind of duplicate the address names (`?reason=`), when it is one of the record type's; else none. */
export function duplicateKind(recordType: MergeRecordType, reason: string | null): DuplicateKind | undefined {
  if (recordType === 'company') return isOneOf(COMPANY_REASONS, reason) ? { recordType, reason } : undefined;
  return isOneOf(CONTACT_REASONS, reason) ? { recordType, reason } : undefined;
}
