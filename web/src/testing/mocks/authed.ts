import { HttpResponse, type HttpResponseResolver } from 'msw';

import { db } from './db';

/** The api's answer without a session. */
export const notSignedIn = () => HttpResponse.json({ message: 'Not signed in' }, { status: 401 });

/** A handler that needs a session, like every api route but login. */
export const authed =
  (resolver: HttpResponseResolver): HttpResponseResolver =>
  (info) =>
    db.signedIn ? resolver(info) : notSignedIn();
