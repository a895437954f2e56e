import type { UseQueryResult } from '@tanstack/react-query';

import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';

import type { McpStatus } from '../api/types';

import { fractionPercent } from './figures';

const CONNECTION_CLASS: Record<string, string> = {
  operational: 'bg-emerald-100 text-emerald-800',
  degraded: 'bg-amber-100 text-amber-900',
  not_configured: 'bg-slate-100 text-slate-700',
};

const label = (s: string) => s.replaceAll('_', ' ');

/** The mcp tab: the assistant's connection, every integration and its throughput. */
export function McpPanel({ query }: { query: UseQueryResult<McpStatus> }) {
  if (query.isPending) return <Skeleton rows={3} label="Loading integrations" />;
  if (query.isError) return <ErrorState title="Could not load the integrations" error={query.error} onRetry={() => void query.refetch()} />;
  const s = query.data;
  const integrations = [...new Set([...Object.keys(s.protocolHealth), ...Object.keys(s.automationPotential)])];
  return (
    <div className="space-y-6">
      <p className="text-sm">
        Assistant connection: <span className="font-semibold">{label(s.kojieConnection.status)}</span>
      </p>
      <section aria-label="Connections" className="space-y-2">
        <h3 className="font-semibold text-slate-900">Connections</h3>
        {s.activeConnections.length === 0 ? (
          <EmptyState title="No connections" />
        ) : (
          <div className="relative overflow-x-auto rounded-lg ring-1 ring-slate-200">
            <table className="w-full min-w-[32rem] text-sm" aria-label="Active connections">
              <thead className="bg-slate-50 text-left text-xs text-slate-500 uppercase">
                <tr>
                  <th scope="col" className="px-3 py-2">Name</th>
                  <th scope="col" className="px-3 py-2">Type</th>
                  <th scope="col" className="px-3 py-2">Status</th>
                  <th scope="col" className="px-3 py-2">Detail</th>
                </tr>
              </thead>
              <tbody>
                {s.activeConnections.map((c) => (
                  <tr key={c.name} className="border-t border-slate-100">
                    <th scope="row" className="px-3 py-2 text-left font-medium">
                      {c.name}
                    </th>
                    <td className="px-3 py-2">{c.type}</td>
                    <td className="px-3 py-2">
                      <span className={`rounded-full px-2 py-0.5 text-xs font-semibold capitalize ${CONNECTION_CLASS[c.status] ?? 'bg-slate-100 text-slate-700'}`}>
                        {label(c.status)}
                      </span>
                    </td>
                    <td className="px-3 py-2 text-slate-600">{c.detail}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-label="Protocol health" className="space-y-2">
        <h3 className="font-semibold text-slate-900">Protocol health</h3>
        {integrations.length === 0 ? (
          <EmptyState title="No integration has run yet" />
        ) : (
          <div className="relative overflow-x-auto rounded-lg ring-1 ring-slate-200">
            <table className="w-full min-w-[32rem] text-sm" aria-label="Throughput by integration">
              <thead className="bg-slate-50 text-left text-xs text-slate-500 uppercase">
                <tr>
                  <th scope="col" className="px-3 py-2">Integration</th>
                  <th scope="col" className="px-3 py-2">Jobs per hour</th>
                  <th scope="col" className="px-3 py-2">Failure rate</th>
                  <th scope="col" className="px-3 py-2">Jobs (24 h)</th>
                  <th scope="col" className="px-3 py-2">Status</th>
                </tr>
              </thead>
              <tbody>
                {integrations.map((name) => {
                  const h = s.protocolHealth[name];
                  return (
                    <tr key={name} className="border-t border-slate-100">
                      <th scope="row" className="px-3 py-2 text-left font-medium">
                        {label(name)}
                      </th>
                      <td className="px-3 py-2 tabular-nums">{h ? h.throughput.toLocaleString() : '—'}</td>
                      <td className="px-3 py-2 tabular-nums">{h ? fractionPercent(h.failureRate) : '—'}</td>
                      <td className="px-3 py-2 tabular-nums">{(s.automationPotential[name] ?? 0).toLocaleString()}</td>
                      <td className="px-3 py-2">{h ? label(h.status) : '—'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
