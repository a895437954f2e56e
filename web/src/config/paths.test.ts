import { describe, expect, it } from 'vitest';
import { routes } from '@/app/router';
import { appRoutePaths } from './paths';

type Route = { path?: string; index?: boolean; children?: Route[] };

/** The addresses of a route tree, index routes as their parent's. */
function routed(table: readonly Route[], parent = ''): string[] {
  return table.flatMap((r) => {
    const here = r.index ? parent || '/' : r.path ?? parent;
    const own = r.path || r.index ? [here] : [];
    return [...own, ...routed(r.children ?? [], here)];
  });
}

describe('appRoutePaths', () => {
  it('lists every address the router serves, so the server answers the rest with 404', () => {
    const served = new Set(routed(routes).filter((p) => p !== '*'));
    expect(new Set(appRoutePaths())).toEqual(served);
  });
});
