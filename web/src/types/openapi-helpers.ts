import type { paths } from './openapi.gen';

/** The JSON a GET of `P` answers with 200, as the server's document describes it. */
export type GetAnswer<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer T } } } };
}
  ? T
  : never;
