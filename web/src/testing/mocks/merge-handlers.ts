import { http, HttpResponse } from 'msw';

import { notSignedIn } from './authed';
import { db } from './db';

/**
 * Duplicates (docs/merge.md): none by default, so record pages show no notice; the Duplicates
 * screen's tests replace these with stateful ones.
 */
export const mergeHandlers = [
  http.get('/api/duplicates', () =>
    db.signedIn ? HttpResponse.json([], { headers: { 'X-Total-Count': '0' } }) : notSignedIn(),
  ),
  http.get('/api/companies/:id/duplicates', () => (db.signedIn ? HttpResponse.json([]) : notSignedIn())),
  http.get('/api/contacts/:id/duplicates', () => (db.signedIn ? HttpResponse.json([]) : notSignedIn())),
];
