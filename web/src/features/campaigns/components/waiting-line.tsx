import type { CampaignWaiting } from '../api/types';

/** "11:00 AM" today, else "Tue 9:00 AM", in the browser's time zone. */
export function formatResume(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const time = at.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  if (at.toDateString() === now.toDateString()) return time;
  const day = at.toLocaleDateString(undefined, { weekday: 'short' });
  const weekAway = at.getTime() - now.getTime() > 6 * 24 * 3600 * 1000;
  return weekAway ? `${at.toLocaleDateString(undefined, { weekday: 'short', month: 'short', day: 'numeric' })} ${time}` : `${day} ${time}`;
}

/** The text of the waiting line: "Hourly limit reached — resumes 11:00 AM", "Paused". */
export function waitingText(w: CampaignWaiting, now?: Date): string {
  return w.until ? `${w.label} — resumes ${formatResume(w.until, now)}` : w.label;
}

/** Why a campaign sends nothing now, and until when; shown with its progress bar. */
export function WaitingLine({ waiting }: { waiting: CampaignWaiting }) {
  return (
    <p role="status" aria-label="Waiting" data-reason={waiting.reason} className="text-sm font-medium text-amber-800">
      {waitingText(waiting)}
    </p>
  );
}
