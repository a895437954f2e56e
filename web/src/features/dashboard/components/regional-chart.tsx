import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

import type { RegionCount } from '../api/get-regional';

/** Companies per target state: a bar chart plus the same figures as a table for screen readers. */
export function RegionalChart({ regions }: { regions: RegionCount[] }) {
  return (
    <div>
      {/* Hidden from screen readers (the table below has the figures), so not focusable either. */}
      <div aria-hidden="true" className="h-56">
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 320, height: 224 }}>
          <BarChart accessibilityLayer={false} data={regions} margin={{ top: 4, right: 4, bottom: 0, left: -20 }}>
            <XAxis dataKey="state" tick={{ fontSize: 12 }} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
            <Tooltip formatter={(value) => [value, 'Companies']} />
            <Bar dataKey="count" fill="#4f46e5" radius={[4, 4, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className="mt-3 w-full text-sm" aria-label="Companies per state">
        <thead className="sr-only">
          <tr>
            <th scope="col">State</th>
            <th scope="col">Companies</th>
          </tr>
        </thead>
        <tbody className="grid grid-cols-2 gap-x-4 sm:grid-cols-4">
          {regions.map((r) => (
            <tr key={r.state} className="flex justify-between border-b border-slate-100 py-1">
              <th scope="row" className="font-normal text-slate-600">
                {r.name}
              </th>
              <td className="font-medium tabular-nums">{r.count.toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
