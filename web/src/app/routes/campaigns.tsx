import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'react-router';

import { Button } from '@/components/ui/button';
import { Card, EmptyState, ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import { Field, inputClass } from '@/components/ui/field';
import { screenHref } from '@/config/paths';
import { useSeedEvents } from '@/features/campaigns/api/seed-events';
import { AiCampaignBuilder } from '@/features/campaigns/components/ai-campaign-builder';
import { AI_MODELS, AUDIENCES, useCreateSingleCampaign, useSingleCampaigns } from '@/features/campaigns/api/single-campaigns';
import { useEmailSummary } from '@/features/email-config/api/get-email-analytics';
import { serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

export const MISSING_INFORMATION = 'Please provide campaign name and description.';

const STATUS_CLASS: Record<string, string> = {
  active: 'bg-emerald-100 text-emerald-800 animate-pulse',
  completed: 'bg-sky-100 text-sky-800',
  paused: 'bg-amber-100 text-amber-800',
  draft: 'bg-slate-100 text-slate-700',
};

type FormValues = { name: string; description: string; targetAudience: string; aiModel: string };

/** Email Campaigns (single; seed 002 §2): figures, the create form, the active campaigns and the AI builder. */
export function CampaignsRoute() {
  const { pathname } = useLocation();
  const campaigns = useSingleCampaigns();
  const summary = useEmailSummary();
  const { register, handleSubmit, reset } = useForm<FormValues>({
    defaultValues: { name: '', description: '', targetAudience: 'high-value', aiModel: 'gpt-5' },
  });
  const create = useCreateSingleCampaign({
    onSuccess: (c) => {
      toast({ title: 'Campaign Created', description: `${c.name}: ${c.totalRecipients} contacts in its audience.`, variant: 'success' });
      reset();
    },
    onError: (e) => toast({ title: 'Creation Failed', description: serverMessageOr(e, 'Failed to create campaign'), variant: 'destructive' }),
  });
  const seed = useSeedEvents({
    onSuccess: () => toast({ title: 'Sample Data Added', description: 'Tracking events for a sample campaign were recorded.', variant: 'success' }),
    onError: (e) => toast({ title: 'Sample Data Failed', description: serverMessageOr(e, 'Failed to add sample data'), variant: 'destructive' }),
  });
  const submit = handleSubmit((v) => {
    if (!v.name.trim() || !v.description.trim()) {
      toast({ title: 'Missing Information', description: MISSING_INFORMATION, variant: 'destructive' });
      return;
    }
    create.mutate(v);
  });
  const list = campaigns.data ?? [];
  const s = summary.data;

  return (
    <div className="space-y-6">
      <title>Campaigns · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Campaigns</h1>
        <Link to={screenHref('emailCampaigns', pathname)} className="text-sm font-semibold text-indigo-700 hover:underline">
          Bulk email campaigns
        </Link>
      </div>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatTile label="Campaigns" value={list.length} />
        <StatTile label="Active" value={list.filter((c) => c.status === 'active').length} />
        <StatTile label="Emails Sent (30 days)" value={(s?.totalSent ?? 0).toLocaleString()} />
        <StatTile label="Open Rate" value={`${s?.openRate ?? 0}%`} />
      </div>
      {s && s.totalSent === 0 ? (
        <Button variant="secondary" onClick={() => seed.mutate()} disabled={seed.isPending}>
          Add sample tracking data
        </Button>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Create Campaign">
          <form aria-label="Create campaign" onSubmit={submit} noValidate className="space-y-3">
            <Field label="Campaign name">
              <input className={inputClass} {...register('name')} />
            </Field>
            <Field label="Description">
              <textarea rows={3} className={inputClass} {...register('description')} />
            </Field>
            <Field label="Target audience">
              <select className={inputClass} {...register('targetAudience')}>
                {AUDIENCES.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="AI model">
              <select className={inputClass} {...register('aiModel')}>
                {AI_MODELS.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
            </Field>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Creating...' : 'Create Campaign'}
            </Button>
          </form>
        </Card>
        <Card title="Active Campaigns">
          {campaigns.isPending ? (
            <Skeleton rows={3} label="Loading campaigns" />
          ) : campaigns.isError ? (
            <ErrorState title="Could not load campaigns" error={campaigns.error} onRetry={() => void campaigns.refetch()} />
          ) : list.length === 0 ? (
            <EmptyState title="No campaigns yet" />
          ) : (
            <ul aria-label="Campaigns" className="space-y-2">
              {list.map((c) => (
                <li key={c.id} aria-label={c.name} className="rounded-lg p-3 ring-1 ring-slate-200">
                  <div className="flex items-center justify-between gap-2">
                    <span className="font-medium">{c.name}</span>
                    <span className={`rounded-full px-2 text-xs font-semibold uppercase ${STATUS_CLASS[c.status] ?? ''}`}>{c.status}</span>
                  </div>
                  <p className="text-sm text-slate-500">{c.description}</p>
                  <p className="text-xs text-slate-600">
                    {c.totalRecipients} recipients · {c.emailsSent} sent · {c.openRate.toFixed(1)}% opened · {c.aiModel}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
      <AiCampaignBuilder />
    </div>
  );
}
