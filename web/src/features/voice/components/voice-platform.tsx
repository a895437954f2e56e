import { useVoiceHealth } from '../api/get-voice-health';

export const DEMO_NOTE = 'No voice API is configured: calls are simulated and nobody is dialled.';

/** Whether calls reach a voice platform or are simulated. */
export function HealthBadge() {
  const health = useVoiceHealth();
  if (health.isPending) return <span className="text-sm text-slate-500">Checking the voice platform…</span>;
  if (health.isError) return <span className="rounded-full bg-rose-100 px-2.5 py-0.5 text-xs font-semibold text-rose-800">Status unavailable</span>;
  const connected = health.data.status === 'connected';
  return (
    <span
      className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${connected ? 'bg-emerald-100 text-emerald-800' : 'bg-amber-100 text-amber-900'}`}
    >
      {connected ? 'Connected' : 'Demo mode'}
    </span>
  );
}

/** In demo mode, a note that nobody is dialled; then the platform's features. */
export function PlatformInfo() {
  const health = useVoiceHealth();
  return (
    <>
      {health.data?.status === 'demo' ? (
        <p role="note" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {DEMO_NOTE}
        </p>
      ) : null}
      {health.data && health.data.features.length > 0 ? (
        <ul aria-label="Platform features" className="flex flex-wrap gap-1">
          {health.data.features.map((f) => (
            <li key={f} className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
              {f}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
