import { describe, expect, it } from 'vitest';
import { routes } from '@/app/router';
import { appHref, appRoutePaths, recordHref } from './paths';

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

describe('record pages', () => {
  it('are listed with their :id segment at the root and under /admin', () => {
    expect(appRoutePaths()).toEqual(
      expect.arrayContaining([
        '/companies/:id',
        '/admin/companies/:id',
        '/contacts/:id',
        '/admin/contacts/:id',
        '/deals/:id',
        '/admin/deals/:id',
      ]),
    );
  });

  it('link to a record keeping the /admin prefix, the id escaped', () => {
    expect(recordHref('company', 'co-1', '/companies')).toBe('/companies/co-1');
    expect(recordHref('contact', 'ct 2', '/admin/leads')).toBe('/admin/contacts/ct%202');
    expect(recordHref('deal', '01J', '/administrator')).toBe('/deals/01J');
  });
});

describe('appHref', () => {
  it('keeps a root address outside admin mode', () => {
    expect(appHref('/email-campaigns?campaign=7', '/contacts')).toBe('/email-campaigns?campaign=7');
    expect(appHref('/deals/d1', '/')).toBe('/deals/d1');
  });

  it('adds the /admin prefix in admin mode, keeping the query string and hash', () => {
    expect(appHref('/email-campaigns?campaign=7', '/admin')).toBe('/admin/email-campaigns?campaign=7');
    expect(appHref('/ops?job=01J#log', '/admin/contacts/c1')).toBe('/admin/ops?job=01J#log');
    expect(appHref('/', '/admin/ops')).toBe('/admin');
    expect(appHref('/?x=1', '/admin/ops')).toBe('/admin?x=1');
  });

  it('leaves admin addresses and other origins alone', () => {
    expect(appHref('/admin/users', '/admin')).toBe('/admin/users');
    expect(appHref('https://example.com/x', '/admin')).toBe('https://example.com/x');
    expect(appHref('//example.com/x', '/admin')).toBe('//example.com/x');
  });
});
