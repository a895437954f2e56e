import type { DuplicateReason, MergeRecordType } from './types';

/**
 * Query keys of duplicates: `groups(params)` pages the Duplicates screen, `possible(type, id)` a
 * record page's notice. A merge or a dismissal refreshes `all`.
 */
export const mergeKeys = {
  all: ['merge'] as const,
  groups: (params: DuplicateListParams) => [...mergeKeys.all, 'groups', params] as const,
  possible: (type: MergeRecordType, id: string) => [...mergeKeys.all, 'possible', type, id] as const,
};

export type DuplicateListParams = {
  recordType: MergeRecordType;
  reason?: DuplicateReason;
  limit: number;
  offset: number;
};
