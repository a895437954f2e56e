import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { Card } from '@/components/ui/states';
import { Select } from '@/components/ui/select';
import { saveTextFile } from '@/lib/download';
import { toast } from '@/stores/toasts';

import { CONTEXT_REQUIRED, useGenerateContent } from '../api/generate-content';
import { CONTENT_TYPES, type AiSource, type ContentResult, type ContentType } from '../api/types';

import { SourceLine } from './ai-source';

const TYPE_LABEL = [
  ['email', 'Email'],
  ['proposal', 'Proposal'],
  ['report', 'Report'],
] as const satisfies readonly (readonly [ContentType, string])[];

/** Content Gen: an email, proposal or report from a description, saved as `generated_{type}.txt`. */
export function ContentGen({ onResult }: { onResult: (r: AiSource) => void }) {
  const [type, setType] = useState<ContentType>('email');
  const [context, setContext] = useState('');
  const [result, setResult] = useState<{ type: ContentType; answer: ContentResult } | null>(null);
  const [asked, setAsked] = useState<ContentType>('email');
  const generate = useGenerateContent({
    onSuccess: (r) => {
      setResult({ type: asked, answer: r });
      onResult(r);
      toast({ title: 'Content Generated!', description: r.message, variant: 'success' });
    },
    onError: (message) => toast({ title: 'Generation Failed', description: message, variant: 'destructive' }),
    fallback: 'Failed to generate content',
  });
  const submit = () => {
    if (!context.trim()) {
      toast({ title: 'Context Required', description: CONTEXT_REQUIRED, variant: 'destructive' });
      return;
    }
    setAsked(type);
    generate.run({ type, description: context.trim() });
  };

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card title="Generate Content">
        <form
          noValidate
          aria-label="Generate content"
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Field label="Content type">
            <Select value={type} onValueChange={(v) => setType(v as ContentType)} options={TYPE_LABEL.filter(([v]) => CONTENT_TYPES.includes(v))} />
          </Field>
          <Field label="Context" hint="Who it is for, what it should say, the tone.">
            <textarea rows={6} className={inputClass} value={context} onChange={(e) => setContext(e.target.value)} />
          </Field>
          <Button type="submit" disabled={generate.pending || context === ''}>
            {generate.pending ? 'Generating...' : 'Generate'}
          </Button>
        </form>
      </Card>
      <Card
        title="Generated Content"
        actions={
          result ? (
            <Button variant="secondary" size="sm" onClick={() => saveTextFile(`generated_${result.type}.txt`, result.answer.content)}>
              Download
            </Button>
          ) : null
        }
      >
        {result ? (
          <div className="space-y-2 text-sm">
            <SourceLine result={result.answer} />
            <p aria-label="Generated text" className="max-h-96 overflow-y-auto rounded-md bg-slate-50 p-3 break-words whitespace-pre-wrap text-slate-800">
              {result.answer.content}
            </p>
          </div>
        ) : (
          <p className="text-sm text-slate-500">Generated content shows here.</p>
        )}
      </Card>
    </div>
  );
}
