import type { Waiting } from '../api/types';

/** "Tue, Nov 24, 10:29 AM" in the browser's time zone; the year only when it is not this year. */
export function formatWhen(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return '—';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return at.toLocaleString(undefined, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    ...(at.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
    hour: 'numeric',
    minute: '2-digit',
  });
}

/** The waiting line: "Hourly limit reached — resumes Tue, Nov 24, 11:00 AM", or the label alone. */
export function waitingText(w: Waiting, now?: Date): string {
  return w.until ? `${w.label} — resumes ${formatWhen(w.until, now)}` : w.label;
}
