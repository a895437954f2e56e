/** What is merged: a company or a contact (docs/merge.md). */
export type MergeRecordType = 'company' | 'contact';

/** The kinds of duplicate: companies by website, phone, name and city; contacts by email, phone, name. */
export type DuplicateReason = 'domain' | 'phone' | 'name' | 'email';

/** A record as the Duplicates screen and the record pages' notice show it. */
export type DuplicateRecord = {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  website: string | null;
  city: string | null;
  state: string | null;
  title: string | null;
  companyId: string | null;
  companyName: string | null;
  status: string;
  score: number;
  /** A company's contacts; a contact's deals and emails. */
  related: number;
  createdAt: string;
  /** Root path of the record's page. */
  href: string;
};

/** One suggestion: records that share a key, and why. */
export type DuplicateGroup = {
  id: string;
  reason: DuplicateReason;
  label: string;
  /** How many records share it (`records` lists at most 25). */
  count: number;
  records: DuplicateRecord[];
};

/** A record that may be the same as the one on the page. */
export type PossibleDuplicate = DuplicateRecord & { reasons: { reason: DuplicateReason; label: string }[] };

export type MergeOutcome = {
  survivorId: string;
  merged: number;
  moved: Record<string, number>;
};

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
