/** Targeting of a bulk campaign (seed 002 §3). */
export type TargetFilters = {
  scoreMin?: number;
  scoreMax?: number;
  statuses?: string[];
  states?: string[];
};

/** `failed`: the send job died (its reason in `failure`); Retry sends the rest. */
export type BulkCampaignStatus = 'draft' | 'scheduled' | 'sending' | 'sent' | 'paused' | 'cancelled' | 'failed';

/** Why a campaign sends nothing now, and until when (absent `until`: until someone resumes it). */
export type CampaignWaiting = {
  reason: 'hourly_limit' | 'daily_limit' | 'deferred' | 'retrying' | 'scheduled' | 'waiting' | 'paused_by_ops' | 'paused';
  label: string;
  until?: string;
};

export type BulkCampaign = {
  id: string;
  name: string;
  description: string | null;
  status: BulkCampaignStatus;
  subject: string | null;
  templateId: string | null;
  fromEmail: string | null;
  targetFilters: TargetFilters;
  selectedContactIds?: string[];
  scheduleAt?: string;
  createdAt: string;
  sentAt?: string;
  totalRecipients: number;
  stats: { sent: number; delivered: number; opened: number; clicked: number; replied: number };
  /** Delivery of the recipients: handled of total, and what is waiting or went wrong. */
  progress: {
    total: number;
    handled: number;
    percent: number;
    queued: number;
    deferred: number;
    failed: number;
    suppressed: number;
    inDoubt: number;
  };
  /** Why the send job died, when `status` is `failed`. */
  failure?: string;
  waiting?: CampaignWaiting;
};

export type EmailTemplate = {
  id: string;
  name: string;
  category: string;
  subject: string;
  body: string;
  isBuiltin: boolean;
  isActive: boolean;
};

export type CampaignPerformance = {
  totalCampaigns: number;
  totalEmailsSent: number;
  averageOpenRate: number;
  averageClickRate: number;
  averageReplyRate: number;
  /** `openTracked`: emails sent with the open pixel, the open rate's base. */
  figures?: { openTracked: number };
};

/** Rounded percent of `part` in `whole`, 0 when nothing was sent (seed 002 §5). */
export const ratePercent = (part: number, whole: number): number =>
  whole > 0 ? Math.round((part * 100) / whole) : 0;


/** What the composer writes: a subject and a body with `{{field}}` / `{{field|fallback}}` merge fields. */
export type EmailDraft = { subject: string; body: string };

/** A draft rendered for one contact (preview), from a campaign's own address when it has one. */
export type EmailDraftFor = EmailDraft & { contactId: string; fromEmail?: string };

/** A contact a targeting matches, as the pick list shows it. */
export type AudienceContact = {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
  score: number;
  status: string;
  companyName: string | null;
};
