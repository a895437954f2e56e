import { formatWhen } from '@/lib/format';

import type { Waiting } from '../api/types';

/** The waiting line: "Hourly limit reached — resumes Tue, Nov 24, 11:00 AM", or the label alone. */
export function waitingText(w: Waiting, now?: Date): string {
  return w.until ? `${w.label} — resumes ${formatWhen(w.until, now)}` : w.label;
}
