import type { ContactListFilter, paths, Selection as SelectionParts, Skipped } from '@/types/openapi.gen';

/**
 * Who a bulk action is for (POST /api/outreach/preview, POST /api/email-sequences/{id}/enrollments,
 * the contacts' bulk enrich and AI score): contacts picked by hand, every contact of picked companies
 * (discovery results), or every contact the contacts list's filters match ("select all N matching");
 * the server takes a selection with at least one of them.
 */
export type Selection = SelectionParts &
  ({ contactIds: string[] } | { companyIds: string[] } | { contactFilter: ContactListFilter });

/** Contacts left out, each counted once for the first reason that applies. */
export type { Skipped };

type PreviewOp = paths['/api/outreach/preview']['post'];
/** `POST /api/outreach/preview`: the selection, and the sequence it would join if any. */
export type PreviewInput = NonNullable<PreviewOp['requestBody']>['content']['application/json'];
export type SelectionPreview = PreviewOp['responses'][200]['content']['application/json'];

export type EnrollResult =
  paths['/api/email-sequences/{id}/enrollments']['post']['responses'][200]['content']['application/json'];

const REASONS: [keyof Skipped, string, string][] = [
  ['noEmail', 'has no email', 'have no email'],
  ['suppressed', 'is unsubscribed or bounced', 'are unsubscribed or bounced'],
  ['alreadyEnrolled', 'is already enrolled', 'are already enrolled'],
  ['outsideRules', "is outside the sequence's enrollment rules", "are outside the sequence's enrollment rules"],
  ['overDailyLimit', "is over today's enrollment limit", "are over today's enrollment limit"],
];

/** "1 has no email, 2 are unsubscribed or bounced", or '' when nobody is skipped. */
export function skippedText(skipped: Skipped): string {
  return REASONS.filter(([key]) => skipped[key] > 0)
    .map(([key, one, many]) => `${skipped[key].toLocaleString()} ${skipped[key] === 1 ? one : many}`)
    .join(', ');
}
