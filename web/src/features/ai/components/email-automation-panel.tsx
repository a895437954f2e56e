import type { UseQueryResult } from '@tanstack/react-query';

import { EmptyState, ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import { formatCents } from '@/lib/invoice-math';

import type { AutomationPreview, EmailAutomationStatus } from '../api/types';

import { percentOrDash } from './figures';

const list = (v: string[] | string) => (Array.isArray(v) ? v.join(', ') : v);

function StatusSection({ s }: { s: EmailAutomationStatus }) {
  const c = s.currentCapabilities;
  const m = s.performanceMetrics;
  return (
    <>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatTile label="Campaigns" value={c.totalCampaigns.toLocaleString()} />
        <StatTile label="Open Rate" value={percentOrDash(c.openRate)} />
        <StatTile label="Contact Base" value={c.contactBase.toLocaleString()} />
        <StatTile label="Automation Sequences" value={c.automationSequences.toLocaleString()} />
      </div>
      <section aria-label="Automation workflows" className="space-y-2">
        <h3 className="font-semibold text-slate-900">Automation workflows</h3>
        {s.automationWorkflows.length === 0 ? (
          <EmptyState title="No workflows yet">Email sequences show here once created.</EmptyState>
        ) : (
          <ul className="grid gap-3 md:grid-cols-2">
            {s.automationWorkflows.map((w) => (
              <li key={w.id} aria-label={w.name} className="rounded-lg bg-white p-3 text-sm ring-1 ring-slate-200">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium break-words">{w.name}</span>
                  <span
                    className={`rounded-full px-2 py-0.5 text-xs font-semibold ${w.status === 'ready' ? 'bg-emerald-100 text-emerald-800' : 'bg-amber-100 text-amber-900'}`}
                  >
                    {w.status === 'ready' ? 'Ready' : 'Development'}
                  </span>
                </div>
                {w.description ? <p className="mt-1 text-slate-600">{w.description}</p> : null}
                {w.components.length > 0 ? (
                  <p className="mt-2 flex flex-wrap gap-1">
                    {w.components.map((step, i) => (
                      <span key={`${step}-${i}`} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                        {step}
                      </span>
                    ))}
                  </p>
                ) : null}
                <p className="mt-1 text-xs text-slate-500">{w.potential}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-label="Email performance" className="space-y-2">
        <h3 className="font-semibold text-slate-900">Email performance</h3>
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <StatTile label="Sent" value={m.sent.toLocaleString()} />
          <StatTile label="Opened" value={m.opened.toLocaleString()} note={`${percentOrDash(m.openRate)} open rate`} />
          <StatTile label="Clicked" value={m.clicked.toLocaleString()} note={`${percentOrDash(m.clickRate)} click rate`} />
          <StatTile label="Replied" value={m.replied.toLocaleString()} note={`${percentOrDash(m.replyRate)} reply rate`} />
        </div>
      </section>
    </>
  );
}

function PreviewSection({ p }: { p: AutomationPreview }) {
  const e = p.integrationEcosystem;
  const roi = p.roiProjections;
  return (
    <>
      <section aria-label="Integration ecosystem" className="space-y-2">
        <h3 className="font-semibold text-slate-900">Integration ecosystem</h3>
        <p className="text-sm text-slate-600">
          {e.coreIntegrations} core integrations · {e.readyForKOJIE} ready for the assistant · {e.totalPotential} in total
        </p>
        <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {e.categories.map((c) => (
            <li key={c.name} aria-label={c.name} className="rounded-lg bg-white p-3 text-sm ring-1 ring-slate-200">
              <p className="flex justify-between gap-2 font-medium">
                <span className="break-words">{c.name}</span>
                <span className="tabular-nums">{c.count}</span>
              </p>
              {c.examples.length > 0 ? <p className="text-xs text-slate-500">{c.examples.join(', ')}</p> : null}
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Workflow templates" className="space-y-2">
        <h3 className="font-semibold text-slate-900">Workflow templates</h3>
        {p.kojieAICapabilities.workflowTemplates.length === 0 ? (
          <EmptyState title="No workflow templates" />
        ) : (
          <ul className="space-y-2">
            {p.kojieAICapabilities.workflowTemplates.map((t) => (
              <li key={t.name} aria-label={t.name} className="rounded-lg bg-white p-3 text-sm ring-1 ring-slate-200">
                <p className="flex flex-wrap justify-between gap-2 font-medium">
                  <span className="break-words">{t.name}</span>
                  <span className="text-xs font-normal text-slate-500">{t.timeline}</span>
                </p>
                <p className="text-xs text-slate-600">Triggers: {list(t.triggers)}</p>
                <p className="text-xs text-slate-600">Actions: {list(t.actions)}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-label="Projections" className="space-y-2">
        <h3 className="font-semibold text-slate-900">Projections from recent activity</h3>
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <StatTile label="Emails Sent" value={roi.emailsSent.toLocaleString()} />
          <StatTile label="Meetings Booked" value={roi.meetingsBooked.toLocaleString()} />
          <StatTile label="Revenue" value={formatCents(roi.revenueCents)} />
          <StatTile label="Hours Saved" value={roi.hoursSaved.toLocaleString()} />
        </div>
      </section>
    </>
  );
}

/** The email-automation tab: capabilities, workflows and figures, then the automation preview. */
export function EmailAutomationPanel({
  status,
  preview,
}: {
  status: UseQueryResult<EmailAutomationStatus>;
  preview: UseQueryResult<AutomationPreview>;
}) {
  return (
    <div className="space-y-6">
      {status.isPending ? (
        <Skeleton rows={2} label="Loading email automation" />
      ) : status.isError ? (
        <ErrorState title="Could not load email automation" error={status.error} onRetry={() => void status.refetch()} />
      ) : (
        <StatusSection s={status.data} />
      )}
      {preview.isPending ? (
        <Skeleton rows={2} label="Loading the automation preview" />
      ) : preview.isError ? (
        <ErrorState title="Could not load the automation preview" error={preview.error} onRetry={() => void preview.refetch()} />
      ) : (
        <PreviewSection p={preview.data} />
      )}
    </div>
  );
}
