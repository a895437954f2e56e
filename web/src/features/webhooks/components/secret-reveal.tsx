import { useEffect, useId, useState } from 'react';

import { Button } from '@/components/ui/button';

/** The signing secret, shown once, with a copy button. */
export function SecretReveal({ secret }: { secret: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        Signing secret
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          value={secret}
          aria-describedby={`${id}-hint`}
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-2 py-1.5 font-mono text-xs"
        />
        <Button
          variant="secondary"
          onClick={() => void navigator.clipboard.writeText(secret).then(() => setCopied(true))}
        >
          {copied ? 'Copied' : 'Copy secret'}
        </Button>
      </div>
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        Copy it now: it is not shown again. Your receiver checks each request&apos;s{' '}
        <code>webhook-signature</code> with it (Standard Webhooks).
      </p>
    </div>
  );
}
