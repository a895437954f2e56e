import { describe, expect, expectTypeOf, it } from 'vitest';

import { JOB_KINDS, JOB_STATUSES, type JobKind, type JobStatus } from './api';

describe('the app lists of API enums', () => {
  it('lists every job kind and status the server documents, each once', () => {
    expectTypeOf<(typeof JOB_KINDS)[number]>().toEqualTypeOf<JobKind>();
    expectTypeOf<(typeof JOB_STATUSES)[number]>().toEqualTypeOf<JobStatus>();
    expect(new Set(JOB_KINDS).size).toBe(JOB_KINDS.length);
    expect(new Set(JOB_STATUSES).size).toBe(JOB_STATUSES.length);
  });
});
