/** Human dates of the activity feed, in the browser's time zone. */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The full date in the browser's time zone, e.g. "Tue, Nov 24, 2026, 10:29 AM". */
export function fullDate(at: string): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return at;
  return d.toLocaleString(undefined, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

/** How long ago, in words: "just now", "5 min ago", "3 h ago", then the day and time ("Tue, Nov 24, 10:29 AM"). */
export function relativeDate(at: string, now: number = Date.now()): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return at;
  const ago = now - d.getTime();
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  if (ago < 24 * HOUR) return `${Math.floor(ago / HOUR)} h ago`;
  return d.toLocaleString(undefined, { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}
