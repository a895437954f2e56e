import type { Selection } from './types';

/** Query keys of bulk actions on a selection; a preview is fresh per selection and target. */
export const outreachKeys = {
  all: ['outreach'] as const,
  preview: (selection: Selection, sequenceId: string | undefined) =>
    [...outreachKeys.all, 'preview', selection, sequenceId ?? null] as const,
};
