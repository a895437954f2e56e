import { geoConicConformal, geoPath } from 'd3-geo';
import { useEffect, useState } from 'react';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

import type { RegionCount } from '../api/get-regional';
import { CustomerReportDialog } from './customer-report-dialog';

/** The seven target states with their city point (seed 000 §2.6) and FIPS code in us-atlas. */
export const MAP_POINTS = [
  { state: 'TX', fips: '48', city: 'Dallas', lon: -96.797, lat: 32.777 },
  { state: 'LA', fips: '22', city: 'New Orleans', lon: -90.072, lat: 29.951 },
  { state: 'AR', fips: '05', city: 'Little Rock', lon: -92.289, lat: 34.746 },
  { state: 'MS', fips: '28', city: 'Jackson', lon: -90.185, lat: 32.299 },
  { state: 'NM', fips: '35', city: 'Albuquerque', lon: -106.651, lat: 35.084 },
  { state: 'OK', fips: '40', city: 'Oklahoma City', lon: -97.516, lat: 35.468 },
  { state: 'AZ', fips: '04', city: 'Phoenix', lon: -112.074, lat: 33.448 },
] as const;

const WIDTH = 640;
const HEIGHT = 360;
const MIN_R = 5;
const MAX_R = 24;

/** Point radius: area grows with the count, the largest state gets MAX_R. */
export function radius(count: number, max: number): number {
  if (max <= 0 || count <= 0) return MIN_R;
  return MIN_R + (MAX_R - MIN_R) * Math.sqrt(count / max);
}

type States = GeoJSON.FeatureCollection<GeoJSON.Geometry, { name: string }>;

/** The boundaries, loaded as their own chunk the first time the map is shown. */
async function loadStates(): Promise<States> {
  const atlas = (await import('us-atlas/states-10m.json')).default as unknown as Topology<{
    states: GeometryCollection<{ name: string }>;
  }>;
  const all = feature(atlas, atlas.objects.states);
  const ids = new Set<string>(MAP_POINTS.map((p) => p.fips));
  return { type: 'FeatureCollection', features: all.features.filter((f) => ids.has(String(f.id))) };
}

type Selected = { city: string; state: string; count: number };

/** A map of the seven target states drawn offline, a point per city sized by its state's companies. */
export function RegionMap({ regions }: { regions: RegionCount[] }) {
  const [states, setStates] = useState<States | null>(null);
  const [failed, setFailed] = useState(false);
  const [selected, setSelected] = useState<Selected | null>(null);
  useEffect(() => {
    let live = true;
    loadStates().then(
      (s) => live && setStates(s),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);

  const countOf = (state: string) => regions.find((r) => r.state === state)?.count ?? 0;
  const max = Math.max(0, ...regions.map((r) => r.count));
  const projection = states ? geoConicConformal().parallels([29.5, 45.5]).rotate([98, 0]).fitSize([WIDTH, HEIGHT], states) : null;
  const path = projection ? geoPath(projection) : null;

  return (
    <div>
      {failed ? <p className="text-sm text-rose-700">The map could not be drawn.</p> : null}
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-auto w-full" role="group" aria-label="Companies by target city">
        {path && states
          ? states.features.map((f) => (
              <path key={String(f.id)} d={path(f) ?? ''} className="fill-slate-100 stroke-slate-400" strokeWidth={1}>
                <title>{f.properties.name}</title>
              </path>
            ))
          : null}
        {projection
          ? MAP_POINTS.map((p) => {
              const xy = projection([p.lon, p.lat]);
              if (!xy) return null;
              const count = countOf(p.state);
              const r = radius(count, max);
              return (
                <g
                  key={p.state}
                  role="button"
                  tabIndex={0}
                  aria-label={`${p.city}, ${p.state}: ${count.toLocaleString()} companies`}
                  data-radius={r.toFixed(1)}
                  className="cursor-pointer focus:outline-none [&:focus>circle]:stroke-indigo-900 [&:focus>circle]:stroke-[3]"
                  onClick={() => setSelected({ city: p.city, state: p.state, count })}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' || e.key === ' ') {
                      e.preventDefault();
                      setSelected({ city: p.city, state: p.state, count });
                    }
                  }}
                >
                  <circle cx={xy[0]} cy={xy[1]} r={r} className="fill-indigo-500/70 stroke-white" strokeWidth={1.5} />
                  <text x={xy[0]} y={xy[1] + r + 12} textAnchor="middle" className="fill-slate-700 text-[11px]">
                    {/* The button's name begins with what it shows (WCAG 2.5.3: speech users say it). */}
                    {p.city}, {p.state} {count.toLocaleString()}
                  </text>
                </g>
              );
            })
          : null}
      </svg>
      {selected ? <CustomerReportDialog {...selected} onClose={() => setSelected(null)} /> : null}
    </div>
  );
}
