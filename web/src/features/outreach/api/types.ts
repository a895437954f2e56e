/** Who a bulk action is for (POST /api/outreach/preview, POST /api/email-sequences/{id}/enrollments). */
export type Selection = {
  /** Contacts picked by hand. */
  contactIds?: string[];
  /** Every contact of these companies (discovery results). */
  companyIds?: string[];
  /** Every contact the contacts list's filters match ("select all N matching"). */
  contactFilter?: { q?: string; role?: string; status?: string; region?: string };
};

/** Contacts left out, each counted once for the first reason that applies. */
export type Skipped = {
  noEmail: number;
  suppressed: number;
  alreadyEnrolled: number;
  outsideRules: number;
  overDailyLimit: number;
};

export type SelectionPreview = { selected: number; reachable: number; skipped: Skipped; contactIds: string[] };

export type EnrollResult = {
  enrolled: number;
  selected: number;
  skipped: Skipped;
  remainingToday: number;
  maxDailyEnrollments: number;
};

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
