type ProgressBarProps = {
  percent: number;
  label: string;
  message?: string | null;
};

export function ProgressBar({ percent, label, message }: ProgressBarProps) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={message ? `${value}% — ${message}` : `${value}%`}
        className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="h-full rounded-full bg-indigo-600 transition-[width] duration-500"
          style={{ width: `${value}%` }}
        />
      </div>
      <p aria-live="polite" className="mt-1.5 flex justify-between gap-2 text-sm text-slate-600">
        <span className="truncate">{message ?? '\u00a0'}</span>
        <span className="font-medium tabular-nums text-slate-900">{value}%</span>
      </p>
    </div>
  );
}
