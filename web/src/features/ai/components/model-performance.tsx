import { Card, EmptyState } from '@/components/ui/states';

import type { AiAnalytics } from '../api/types';
import { fractionPercent } from './figures';

/** Each model's accuracy, speed, tasks run and specialty. */
export function ModelPerformance({ models }: { models: AiAnalytics['modelPerformance'] }) {
  const rows = Object.entries(models);
  return (
    <Card title="Model Performance">
      {rows.length === 0 ? (
        <EmptyState title="No AI tasks have run yet" />
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full min-w-[30rem] text-sm" aria-label="Model performance">
            <thead className="text-left text-xs text-slate-500 uppercase">
              <tr>
                <th scope="col" className="py-1 pr-3">Model</th>
                <th scope="col" className="py-1 pr-3">Accuracy</th>
                <th scope="col" className="py-1 pr-3">Speed</th>
                <th scope="col" className="py-1 pr-3">Tasks</th>
                <th scope="col" className="py-1">Specialty</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([name, m]) => (
                <tr key={name} className="border-t border-slate-100">
                  <th scope="row" className="py-1.5 pr-3 text-left font-medium">
                    {name}
                  </th>
                  <td className="py-1.5 pr-3 tabular-nums">{fractionPercent(m.accuracy)}</td>
                  <td className="py-1.5 pr-3 tabular-nums">{m.speed ?? '—'}</td>
                  <td className="py-1.5 pr-3 tabular-nums">{m.usage.toLocaleString()}</td>
                  <td className="py-1.5 text-slate-600">{m.specialty}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
