import type {
  AudienceMember,
  BulkCampaign as BulkCampaignView,
  BulkPerformance,
  CampaignWaiting as CampaignWaitingView,
  EmailTemplate as EmailTemplateView,
  TargetFilters as TargetFiltersView,
} from '@/types/openapi.gen';

/** Targeting of a bulk campaign (seed 002 §3). */
export type TargetFilters = TargetFiltersView;

/** `failed`: the send job died (its reason in `failure`); Retry sends the rest. */
export type BulkCampaignStatus = 'draft' | 'scheduled' | 'sending' | 'sent' | 'paused' | 'cancelled' | 'failed';

/** Why a campaign sends nothing now, and until when (absent `until`: until someone resumes it). */
export type CampaignWaiting = CampaignWaitingView;

/** A bulk campaign; `progress`: its recipients handled of total, and what is waiting or went wrong. */
export type BulkCampaign = Omit<BulkCampaignView, 'status' | 'targetFilters'> & {
  // The server sends one of these; its schema says string (issue 24 §2).
  status: BulkCampaignStatus;
  // The server sends this shape; its schema says any object (issue 24 §2).
  targetFilters: TargetFilters;
};

export type EmailTemplate = EmailTemplateView;

/** `figures.openTracked`: emails sent with the open pixel, the open rate's base. */
export type CampaignPerformance = BulkPerformance;

/** Rounded percent of `part` in `whole`, 0 when nothing was sent (seed 002 §5). */
export const ratePercent = (part: number, whole: number): number =>
  whole > 0 ? Math.round((part * 100) / whole) : 0;

/** What the composer writes: a subject and a body with `{{field}}` / `{{field|fallback}}` merge fields. */
export type EmailDraft = { subject: string; body: string };

/** A draft rendered for one contact (preview), from a campaign's own address when it has one. */
export type EmailDraftFor = EmailDraft & { contactId: string; fromEmail?: string };

/** A contact a targeting matches, as the pick list shows it. */
export type AudienceContact = AudienceMember;
