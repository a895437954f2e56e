import { http, HttpResponse } from 'msw';

import type { SavedView, ViewScreen, ViewState } from '@/features/views/api/views';

import { authed } from './authed';
import { db, newId } from './db';

/** Saved views as the api keeps them: per screen, by name; the same name (any case) replaces. */
export const viewsHandlers = [
  http.get('/api/views', authed(({ request }) => {
    const screen = new URL(request.url).searchParams.get('screen');
    const rows = db.views.filter((v) => v.screen === screen).sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
    return HttpResponse.json(rows);
  })),
  http.post('/api/views', authed(async ({ request }) => {
    const body = (await request.json()) as { screen: ViewScreen; name: string; state: ViewState };
    if (!body.name.trim()) return HttpResponse.json({ message: 'Name the view', errors: { name: 'Name the view' } }, { status: 422 });
    const now = new Date().toISOString();
    const same = db.views.find((v) => v.screen === body.screen && v.name.toLowerCase() === body.name.trim().toLowerCase());
    if (same) {
      Object.assign(same, { name: body.name.trim(), state: body.state, updatedAt: now });
      return HttpResponse.json(same);
    }
    const view: SavedView = { id: newId('view'), screen: body.screen, name: body.name.trim(), state: body.state, createdAt: now, updatedAt: now };
    db.views.push(view);
    return HttpResponse.json(view, { status: 201 });
  })),
  http.delete('/api/views/:id', authed(({ params }) => {
    const before = db.views.length;
    db.views = db.views.filter((v) => v.id !== params.id);
    return db.views.length < before ? new HttpResponse(null, { status: 204 }) : HttpResponse.json({ message: 'View not found' }, { status: 404 });
  })),
];
