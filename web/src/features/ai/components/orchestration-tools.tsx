import { useState } from 'react';
import { useForm } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { Card } from '@/components/ui/states';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/stores/toasts';

import { useGenerateOutreach, type OutreachInput } from '../api/generate-outreach';
import { useMarketIntelligence, type IntelligenceInput } from '../api/market-intelligence';
import { useSentimentAnalysis, type SentimentInput } from '../api/sentiment-analysis';
import type { IntelligenceResult, OutreachResult, SentimentResult } from '../api/types';

import { SourceLine } from './ai-source';

/** Seed 002 §5 "AI tools": what each tool needs (the api's own words). */
export const SENTIMENT_REQUIRED = 'Company name and industry are required';
export const INTELLIGENCE_REQUIRED = 'Company name and query are required';
export const OUTREACH_REQUIRED = 'Contact name and company name are required';

const missing = (description: string) => toast({ title: 'Missing Information', description, variant: 'destructive' });
const failed = (title: string) => (description: string) => toast({ title, description, variant: 'destructive' });

const SENTIMENT_CLASS: Record<string, string> = {
  positive: 'bg-emerald-100 text-emerald-800',
  negative: 'bg-rose-100 text-rose-800',
};

function SentimentTool() {
  const [result, setResult] = useState<SentimentResult | null>(null);
  const { register, handleSubmit } = useForm<SentimentInput>({ defaultValues: { companyName: '', industry: '' } });
  const task = useSentimentAnalysis({ onSuccess: setResult, onError: failed('Analysis Failed'), fallback: 'Failed to analyze sentiment' });
  const submit = handleSubmit((v) => {
    const input = { companyName: v.companyName.trim(), industry: v.industry.trim() };
    if (!input.companyName || !input.industry) missing(SENTIMENT_REQUIRED);
    else task.run(input);
  });
  return (
    <Card title="Market Sentiment">
      <form noValidate aria-label="Market sentiment" onSubmit={submit} className="space-y-3">
        <Field label="Company name">
          <input className={inputClass} {...register('companyName')} />
        </Field>
        <Field label="Industry">
          <input className={inputClass} placeholder="e.g. bath remodeling" {...register('industry')} />
        </Field>
        <Button type="submit" disabled={task.pending}>
          {task.pending ? 'Analyzing...' : 'Analyze Sentiment'}
        </Button>
      </form>
      {result ? (
        <div role="region" aria-label="Sentiment result" className="mt-4 space-y-2 text-sm">
          <SourceLine result={result} />
          <p className="flex flex-wrap items-center gap-2">
            <span className={`rounded-full px-2 py-0.5 text-xs font-semibold capitalize ${SENTIMENT_CLASS[result.sentiment] ?? 'bg-slate-100 text-slate-700'}`}>
              {result.sentiment}
            </span>
            <span className="font-semibold tabular-nums">{result.score}/100</span>
          </p>
          <ul aria-label="Key factors" className="list-disc space-y-1 pl-5 text-slate-700">
            {result.keyFactors.map((f) => (
              <li key={f} className="break-words">
                {f}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  );
}

function IntelligenceTool() {
  const [result, setResult] = useState<IntelligenceResult | null>(null);
  const { register, handleSubmit } = useForm<IntelligenceInput>({ defaultValues: { companyName: '', query: '' } });
  const task = useMarketIntelligence({ onSuccess: setResult, onError: failed('Research Failed'), fallback: 'Failed to research the market' });
  const submit = handleSubmit((v) => {
    const input = { companyName: v.companyName.trim(), query: v.query.trim() };
    if (!input.companyName || !input.query) missing(INTELLIGENCE_REQUIRED);
    else task.run(input);
  });
  return (
    <Card title="Market Intelligence">
      <form noValidate aria-label="Market intelligence" onSubmit={submit} className="space-y-3">
        <Field label="Company name">
          <input className={inputClass} {...register('companyName')} />
        </Field>
        <Field label="Research question">
          <textarea rows={2} className={inputClass} placeholder="e.g. Growth plans and recent projects" {...register('query')} />
        </Field>
        <Button type="submit" disabled={task.pending}>
          {task.pending ? 'Researching...' : 'Research'}
        </Button>
      </form>
      {result ? (
        <div role="region" aria-label="Intelligence result" className="mt-4 space-y-2 text-sm">
          <SourceLine result={result} />
          <p className="text-xs text-slate-500">
            Source: {result.source === 'llm' ? 'AI model' : 'CRM data (template)'} · {formatDateTime(result.timestamp)}
          </p>
          <p className="break-words whitespace-pre-wrap text-slate-700">{result.intelligence}</p>
        </div>
      ) : null}
    </Card>
  );
}

function OutreachTool() {
  const [result, setResult] = useState<OutreachResult | null>(null);
  const { register, handleSubmit } = useForm<OutreachInput>({
    defaultValues: { contactName: '', companyName: '', industry: '', city: '', state: '' },
  });
  const task = useGenerateOutreach({ onSuccess: setResult, onError: failed('Generation Failed'), fallback: 'Failed to generate outreach' });
  const submit = handleSubmit((v) => {
    const input = {
      contactName: v.contactName.trim(),
      companyName: v.companyName.trim(),
      industry: v.industry.trim(),
      city: v.city.trim(),
      state: v.state.trim(),
    };
    if (!input.contactName || !input.companyName) missing(OUTREACH_REQUIRED);
    else task.run(input);
  });
  return (
    <Card title="Personalized Outreach" className="lg:col-span-2">
      <form noValidate aria-label="Personalized outreach" onSubmit={submit} className="space-y-3">
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Contact name">
            <input className={inputClass} {...register('contactName')} />
          </Field>
          <Field label="Company name">
            <input className={inputClass} {...register('companyName')} />
          </Field>
          <Field label="Industry">
            <input className={inputClass} {...register('industry')} />
          </Field>
          <div className="grid grid-cols-[1fr_6rem] gap-3">
            <Field label="City">
              <input className={inputClass} {...register('city')} />
            </Field>
            <Field label="State">
              <input className={inputClass} placeholder="TX" {...register('state')} />
            </Field>
          </div>
        </div>
        <Button type="submit" disabled={task.pending}>
          {task.pending ? 'Generating...' : 'Generate Outreach'}
        </Button>
      </form>
      {result ? (
        <div role="region" aria-label="Outreach result" className="mt-4 space-y-2 text-sm">
          <SourceLine result={result} />
          <p className="font-semibold break-words">Subject: {result.subject}</p>
          <p className="rounded-md bg-slate-50 p-3 break-words whitespace-pre-wrap text-slate-700">{result.content}</p>
        </div>
      ) : null}
    </Card>
  );
}

/** The orchestration tab's three tools (seed 002 §2): sentiment, intelligence, outreach. */
export function OrchestrationTools() {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <SentimentTool />
      <IntelligenceTool />
      <OutreachTool />
    </div>
  );
}
