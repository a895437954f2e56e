/**
 * What each job kind does, in the words of the screens that start it. Ops still sees the kind's
 * name (the CLI and the API take it), in small type under the label.
 */
const LABELS: Record<string, string> = {
  ai_score: 'AI scoring',
  ai_task: 'AI tool request',
  bulk_ai_score: 'Bulk AI scoring',
  bulk_campaign_send: 'Bulk campaign send',
  calendar_sync: 'Calendar sync',
  company_enrich: 'Website enrichment',
  contact_enrich: 'Contact enrichment',
  contact_import: 'Contact import',
  contact_verify: 'Contact verification',
  discovery_scan: 'Discovery scan',
  document_ai: 'Document analysis',
  email_send: 'Email to a contact',
  invoice_pdf: 'Invoice PDF',
  invoice_send: 'Invoice email',
  mailbox_sync: 'Mailbox sync (replies)',
  mailbox_tick: 'Mailbox sync check',
  noop: 'Test job',
  prune_jobs: 'Clean-up of old jobs',
  record_merge: 'Merge of duplicates',
  reminder_batch: 'Meeting reminders (by hand)',
  reminder_send: 'Meeting reminder',
  reminder_tick: 'Reminder check',
  sender_domain_check: 'Sender domain check (SPF, DKIM, DMARC)',
  sequence_step_send: 'Sequence step send',
  sequence_tick: 'Sequence check',
  sequence_trigger: 'Sequence trigger',
  sms_send: 'SMS',
  voice_call: 'Voice call',
};

/** The label of a job kind; a kind this build does not know reads as its words. */
export function jobKindLabel(kind: string): string {
  const known = LABELS[kind];
  if (known) return known;
  const words = kind.replaceAll('_', ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
