import { bandClass, scoreBand, statusLabel } from '@/lib/rules';

/** A 0–100 score coloured by the seed's bands (80+ green, 60–79 yellow, else red). */
export function ScoreBadge({ score, label = 'Score' }: { score: number; label?: string }) {
  const band = scoreBand(score);
  return (
    <span
      data-band={band}
      className={`inline-flex items-center rounded-md px-2 py-0.5 text-xs font-semibold tabular-nums ring-1 ring-inset ${bandClass[band]}`}
    >
      <span className="sr-only">{label} </span>
      {score}
    </span>
  );
}

/** A status in the seed's display form: upper case, underscores as spaces. */
export function StatusPill({ status }: { status: string }) {
  return (
    <span className="inline-flex items-center rounded-md bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
      {statusLabel(status)}
    </span>
  );
}
