/** Query keys of email sequences; `all` is refreshed after every sequence or step change. */
export const sequencesKeys = {
  all: ['sequences'] as const,
  list: () => [...sequencesKeys.all, 'list'] as const,
  detail: (id: string) => [...sequencesKeys.all, 'detail', id] as const,
  steps: (id: string) => [...sequencesKeys.all, 'steps', id] as const,
  enrollments: (id: string, params: { status: string; offset: number }) =>
    [...sequencesKeys.all, 'enrollments', id, params] as const,
  rules: () => [...sequencesKeys.all, 'reply-rules'] as const,
  /** The sending limits are their own root: a sequence change does not refetch them. */
  deliverability: ['deliverability'] as const,
};
