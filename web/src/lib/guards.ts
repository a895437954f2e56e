/**
 * Whether `value` is one of `list`'s values, narrowing it to the list's type: for text from the
 * address bar, a select or the server that must be one of an API enum's values before it is sent.
 */
export const isOneOf = <T>(list: readonly T[], value: unknown): value is T => list.some((item) => item === value);
