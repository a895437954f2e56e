import { Card } from '@/components/ui/states';
import { ReadinessPanel } from '@/features/campaigns/components/readiness-panel';
import { useWebhookConfig } from '@/features/email-config/api/get-webhook-config';
import { EmailSummaryCard, EmailTemplatesCard, IntegrationStatusCard } from '@/features/email-config/components/email-config-cards';
import { SenderDomainCard } from '@/features/email-config/components/sender-domain-card';
import { SuppressionList } from '@/features/email-config/components/suppression-list';
import { WebhookSettings } from '@/features/email-config/components/webhook-settings';
import { MailboxesCard } from '@/features/mailboxes/components/mailboxes-card';

/** Email Configuration (seed 002 §2): how mail leaves, the event webhook, templates and the last 30 days. */
export function EmailConfigRoute() {
  const config = useWebhookConfig();
  return (
    <div className="space-y-6">
      <title>Email Configuration · Prospector</title>
      <h1 className="text-2xl font-bold tracking-tight">Email Configuration</h1>
      <ReadinessPanel />
      <IntegrationStatusCard config={config} />
      <SenderDomainCard />
      <MailboxesCard />
      <Card title="Webhook Configuration">{config.data ? <WebhookSettings config={config.data} /> : null}</Card>
      <SuppressionList />
      <EmailTemplatesCard />
      <EmailSummaryCard />
    </div>
  );
}
