import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { Card } from '@/components/ui/states';
import { Select } from '@/components/ui/select';
import { CONTEXT_REQUIRED, useGenerateContent } from '@/features/ai/api/generate-content';
import { useMcpStatus } from '@/features/ai/api/get-mcp-status';
import type { ContentResult } from '@/features/ai/api/types';
import { SourceLine } from '@/features/ai/components/ai-source';
import { aiConnection } from '@/features/ai/components/ai-overview';
import { toast } from '@/stores/toasts';

import type { EmailDraft } from '../api/types';
import { EmailComposer } from './email-composer';

/** Seed 002 §9: the single-campaign template guidance. */
export const BEST_PRACTICES = [
  'Trigger the high-value sequence when a lead scores 85+',
  'Re-engage contacts after 90 days without a reply',
  'Cold-lead campaigns work best for scores 45-75',
  'Send Tuesday-Thursday, 10 AM-2 PM',
  'Leave 3-7 days between follow-ups',
] as const;

export type CampaignTemplate = { id: string; title: string; guidance: string };

/** Seed 002 §2: nine examples, eight of them shown as cards. */
export const CAMPAIGN_TEMPLATES: readonly CampaignTemplate[] = [
  {
    id: 'cold-lead',
    title: 'Cold Lead Re-engagement',
    guidance: 'Contacts scoring 45-75 who have not replied in 90 days: a new reason to talk, one clear question. Follow up after 3-7 days.',
  },
  {
    id: 'high-value',
    title: 'High-Value Prospect',
    guidance: 'Triggered when a lead scores 85+: a personal note from a senior rep proposing a meeting this week.',
  },
  {
    id: 'post-meeting',
    title: 'Post-Meeting Follow-up',
    guidance: 'The day after a meeting: a recap, the agreed next step and the materials promised. Follow up again after 3-7 days.',
  },
  {
    id: 'regional',
    title: 'Regional Market Focus',
    guidance: 'Remodelers in one target state (Texas, Arkansas, New Mexico, Louisiana, Mississippi, Oklahoma, Arizona): local demand and nearby dealers.',
  },
  {
    id: 'competitor',
    title: 'Competitor Displacement',
    guidance: 'Companies carrying a competing line: what switching brings them in margin, support and lead flow.',
  },
  {
    id: 'holiday',
    title: 'Holiday / Seasonal Offer',
    guidance: 'A time-limited seasonal offer for dealers; send Tuesday-Thursday, 10 AM-2 PM, and close the offer with one reminder.',
  },
  {
    id: 'referral',
    title: 'Referral Request',
    guidance: 'Dealers who are doing well with us: thank them and ask for one introduction to a remodeler they trust.',
  },
  {
    id: 'trade-show',
    title: 'Trade Show Follow-up',
    guidance: 'Contacts met at a trade show: recall the conversation, offer a product demo. Send within a week, follow up after 3-7 days.',
  },
  {
    id: 'renewal',
    title: 'Dealer Plan Renewal',
    guidance: 'Dealers whose annual plan ends soon: their results this year and the plans (Basic, Premium, Enterprise) to renew on.',
  },
];

/** How many templates show as cards; the rest are in the select. */
const CARDS = 8;
/** Lines of the generated email shown before "View full email". */
export const PREVIEW_LINES = 6;

const contextFor = (t: CampaignTemplate) => `${t.title} campaign. ${t.guidance}`;

export const NO_MODEL =
  'No AI model is configured, so nothing was generated: write the email in the composer, or ask an admin to set one up.';

/**
 * AI Campaign Builder (seed 002 §2): pick a template, adjust the context, generate an email with the
 * AI. Without a model nothing is generated (the server's template fallback only echoes the brief):
 * the builder says so and opens the composer with the brief as a starting note.
 */
export function AiCampaignBuilder() {
  const [template, setTemplate] = useState<CampaignTemplate | null>(null);
  const [context, setContext] = useState('');
  const [email, setEmail] = useState<ContentResult | null>(null);
  const [full, setFull] = useState(false);
  const [draft, setDraft] = useState<EmailDraft | null>(null);
  // Known up front from the AI model's integration; a fallback answer says the same after the fact.
  const mcp = useMcpStatus();
  const [fellBack, setFellBack] = useState(false);
  const noModel = fellBack || aiConnection(mcp.data?.activeConnections ?? [])?.status === 'not_configured';
  const generate = useGenerateContent({
    onSuccess: (r) => {
      if (r.fallback) {
        setFellBack(true);
        setEmail(null);
        return;
      }
      setEmail(r);
      toast({ title: 'Email Generated', description: r.message, variant: 'success' });
    },
    onError: (message) => toast({ title: 'Generation Failed', description: message, variant: 'destructive' }),
    fallback: 'Failed to generate content',
  });
  const choose = (t: CampaignTemplate | undefined) => {
    if (!t) return;
    setTemplate(t);
    setContext(contextFor(t));
  };
  const submit = () => {
    if (!context.trim()) {
      toast({ title: 'Context Required', description: CONTEXT_REQUIRED, variant: 'destructive' });
      return;
    }
    if (noModel) {
      setDraft({ subject: '', body: context.trim() });
      return;
    }
    generate.run({ type: 'email', description: context.trim(), contextType: template?.title ?? 'email' });
  };
  const preview = email ? email.content.split('\n').slice(0, PREVIEW_LINES).join('\n') : '';
  const longer = email ? email.content.split('\n').length > PREVIEW_LINES : false;

  return (
    <Card title="AI Campaign Builder">
      <div className="space-y-4">
        <ul aria-label="Campaign templates" className="grid gap-2 sm:grid-cols-2 xl:grid-cols-4">
          {CAMPAIGN_TEMPLATES.slice(0, CARDS).map((t) => (
            <li key={t.id}>
              <button
                type="button"
                aria-pressed={template?.id === t.id}
                onClick={() => choose(t)}
                className="h-full w-full rounded-lg p-3 text-left text-sm ring-1 ring-slate-200 hover:ring-indigo-300 focus-visible:outline-2 focus-visible:outline-indigo-600 aria-pressed:bg-indigo-50 aria-pressed:ring-indigo-500"
              >
                <span className="block font-medium text-slate-900">{t.title}</span>
                <span className="mt-1 block text-xs text-slate-600">{t.guidance}</span>
              </button>
            </li>
          ))}
        </ul>
        <div className="grid gap-4 lg:grid-cols-2">
          <form
            noValidate
            aria-label="AI campaign builder"
            className="space-y-3"
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            <Field label="Template">
              <Select
                value={template?.id ?? ''}
                onValueChange={(id) => choose(CAMPAIGN_TEMPLATES.find((t) => t.id === id))}
                placeholder={`Choose one of ${CAMPAIGN_TEMPLATES.length} templates`}
                options={CAMPAIGN_TEMPLATES.map((t) => [t.id, t.title] as const)}
              />
            </Field>
            <Field label="Campaign context" hint="Who the email is for and what it should achieve.">
              <textarea rows={5} className={inputClass} value={context} onChange={(e) => setContext(e.target.value)} />
            </Field>
            {noModel ? (
              <>
                <p aria-live="polite" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset">
                  {NO_MODEL}
                </p>
                <Button type="submit" disabled={context.trim() === ''}>
                  Write in the composer
                </Button>
              </>
            ) : (
              <Button type="submit" disabled={generate.pending || context === '' || mcp.isPending}>
                {generate.pending ? 'Generating...' : 'Generate'}
              </Button>
            )}
          </form>
          <div className="space-y-3 text-sm">
            {email && !noModel ? (
              <section aria-label="Email preview" className="space-y-2">
                <h3 className="font-semibold text-slate-900">Email preview</h3>
                <SourceLine result={email} />
                <p className="rounded-md bg-slate-50 p-3 break-words whitespace-pre-wrap text-slate-800">
                  {preview}
                  {longer ? '\n…' : ''}
                </p>
                <Button variant="secondary" size="sm" onClick={() => setFull(true)}>
                  View full email
                </Button>
              </section>
            ) : noModel ? null : (
              <p className="text-slate-500">Choose a template or describe the campaign, then generate an email.</p>
            )}
            <div>
              <h3 className="font-semibold text-slate-900">Best practices</h3>
              <ul aria-label="Best practices" className="mt-1 list-disc space-y-0.5 pl-5 text-slate-700">
                {BEST_PRACTICES.map((b) => (
                  <li key={b}>{b}</li>
                ))}
              </ul>
            </div>
          </div>
        </div>
      </div>
      {full && email ? (
        <Dialog open onOpenChange={(open) => !open && setFull(false)} title="Generated email" size="lg">
          <SourceLine result={email} />
          <p className="mt-3 text-sm break-words whitespace-pre-wrap text-slate-800">{email.content}</p>
        </Dialog>
      ) : null}
      {draft ? (
        <Dialog open onOpenChange={(open) => !open && setDraft(null)} title="Write the email" size="lg">
          <p className="mb-3 text-sm text-slate-600">
            The body starts with your brief as a note: replace it with the email. Save it as a template to use it in a campaign or a sequence step.
          </p>
          <EmailComposer value={draft} onChange={setDraft} />
        </Dialog>
      ) : null}
    </Card>
  );
}
