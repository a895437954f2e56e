/** Targeting of a bulk campaign (seed 002 §3). */
export type TargetFilters = {
  scoreMin?: number;
  scoreMax?: number;
  statuses?: string[];
  states?: string[];
};

export type BulkCampaignStatus = 'draft' | 'scheduled' | 'sending' | 'sent' | 'paused' | 'cancelled';

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
};

/** Rounded percent of `part` in `whole`, 0 when nothing was sent (seed 002 §5). */
export const ratePercent = (part: number, whole: number): number =>
  whole > 0 ? Math.round((part * 100) / whole) : 0;

