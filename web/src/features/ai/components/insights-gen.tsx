import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { Card } from '@/components/ui/states';
import { saveTextFile } from '@/lib/download';
import { toast } from '@/stores/toasts';

import { useGenerateInsights } from '../api/generate-insights';
import type { AiSource, InsightsResult } from '../api/types';

import { SourceLine } from './ai-source';

export const INVALID_DATA = 'Please provide valid JSON array data';
export const INSIGHTS_FILE = 'business_insights.txt';

/** The rows typed in, or null when the text is not a JSON array. */
export function parseRows(text: string): unknown[] | null {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

const EXAMPLE = '[{"month": "Jan", "leads": 42, "meetings": 6}, {"month": "Feb", "leads": 55, "meetings": 9}]';

/** Insights: business insights from a JSON array, saved as business_insights.txt. */
export function InsightsGen({ onResult }: { onResult: (r: AiSource) => void }) {
  const [text, setText] = useState('');
  const [result, setResult] = useState<InsightsResult | null>(null);
  const generate = useGenerateInsights({
    onSuccess: (r) => {
      setResult(r);
      onResult(r);
      toast({ title: 'Insights Generated!', description: r.message, variant: 'success' });
    },
    onError: (message) => toast({ title: 'Insights Failed', description: message, variant: 'destructive' }),
    fallback: 'Failed to generate insights',
  });
  const submit = () => {
    const rows = parseRows(text);
    if (!rows) {
      toast({ title: 'Invalid Data Format', description: INVALID_DATA, variant: 'destructive' });
      return;
    }
    generate.run(rows);
  };

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card title="Business Data">
        <form
          noValidate
          aria-label="Generate insights"
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Field label="Data (JSON array)" hint="Up to 5,000 rows.">
            <textarea rows={8} className={`${inputClass} font-mono`} placeholder={EXAMPLE} value={text} onChange={(e) => setText(e.target.value)} />
          </Field>
          <Button type="submit" disabled={generate.pending || text === ''}>
            {generate.pending ? 'Analyzing...' : 'Generate AI Insights'}
          </Button>
        </form>
      </Card>
      <Card
        title="Insights"
        actions={
          result ? (
            <Button variant="secondary" size="sm" onClick={() => saveTextFile(INSIGHTS_FILE, result.insights)}>
              Download
            </Button>
          ) : null
        }
      >
        {result ? (
          <div className="space-y-2 text-sm">
            <SourceLine result={result} />
            <p aria-label="Insights text" className="max-h-96 overflow-y-auto rounded-md bg-slate-50 p-3 break-words whitespace-pre-wrap text-slate-800">
              {result.insights}
            </p>
          </div>
        ) : (
          <p className="text-sm text-slate-500">Insights show here.</p>
        )}
      </Card>
    </div>
  );
}
