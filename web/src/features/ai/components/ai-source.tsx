import type { AiSource } from '../api/types';

export const FALLBACK_LABEL = 'Template fallback';

/** A visible 'Template fallback' badge when the answer is the template's, not a model's. */
export function FallbackBadge({ result }: { result: Pick<AiSource, 'fallback'> }) {
  if (!result.fallback) return null;
  return (
    <span className="inline-flex rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-300 ring-inset">
      {FALLBACK_LABEL}
    </span>
  );
}

/** Where an answer came from: the badge and the server's message. */
export function SourceLine({ result }: { result: AiSource }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
      <FallbackBadge result={result} />
      {!result.fallback ? (
        <span className="rounded-full bg-indigo-50 px-2 py-0.5 font-semibold text-indigo-800">
          AI model{result.model ? `: ${result.model}` : ''}
        </span>
      ) : null}
      <span className="min-w-0 break-words">{result.message}</span>
    </div>
  );
}
