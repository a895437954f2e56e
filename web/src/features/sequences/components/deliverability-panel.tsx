import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { ErrorState, Skeleton, StatTile } from '@/components/ui/states';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useSaveDeliverability } from '../api/deliverability';
import type { Deliverability } from '../api/types';

/** The sending limits, loaded: warmup, daily and hourly caps, and what was sent today and this hour. */
function DeliverabilityForm({ settings }: { settings: Deliverability }) {
  const [warmup, setWarmup] = useState(settings.warmupEnabled);
  const [daily, setDaily] = useState(String(settings.dailyLimit));
  const [hourly, setHourly] = useState(String(settings.hourlyLimit));
  const [trackOpens, setTrackOpens] = useState(settings.trackOpens);
  const save = useSaveDeliverability({
    onSuccess: () => toast({ title: 'Settings Saved', variant: 'success' }),
    onError: (e) => toast({ title: 'Save Failed', description: errorMessage(e), variant: 'destructive' }),
  });
  return (
    <form
      aria-label="Deliverability"
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ warmupEnabled: warmup, dailyLimit: Number(daily), hourlyLimit: Number(hourly), trackOpens });
      }}
    >
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" role="switch" checked={warmup} onChange={(e) => setWarmup(e.target.checked)} />
        Email Warmup <span className="text-slate-500">Gradually increase sending volume</span>
      </label>
      <div className="text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" role="switch" checked={trackOpens} onChange={(e) => setTrackOpens(e.target.checked)} />
          Track opens
        </label>
        <p className="mt-1 text-xs text-slate-500">
          Puts a 1-pixel image in each email. Spam filters score an image in a short email against it, so it is off unless
          you need open rates; open rates then count only emails sent while it was on. Clicks and replies are tracked either way.
        </p>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Daily Sending Limit">
          <input type="number" min={1} className={inputClass} value={daily} onChange={(e) => setDaily(e.target.value)} />
        </Field>
        <Field label="Hourly Sending Limit">
          <input type="number" min={1} className={inputClass} value={hourly} onChange={(e) => setHourly(e.target.value)} />
        </Field>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <StatTile label="Today" value={`${settings.emailsSentToday} / ${settings.effectiveDailyLimit}`} />
        <StatTile label="This Hour" value={`${settings.emailsSentThisHour} / ${settings.hourlyLimit}`} />
      </div>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save'}
      </Button>
    </form>
  );
}

/** The deliverability tab; the screen reads the settings up front so the tab opens loaded. */
export function DeliverabilityPanel({ deliverability }: { deliverability: UseQueryResult<Deliverability> }) {
  return deliverability.data ? (
    <DeliverabilityForm settings={deliverability.data} />
  ) : deliverability.isError ? (
    <ErrorState title="Could not load the settings" error={deliverability.error} onRetry={() => deliverability.refetch()} />
  ) : (
    <Skeleton rows={2} label="Loading settings" />
  );
}
