/** Query keys of the connected mailboxes (mailbox sync); `all` covers all of them. */
export const mailboxKeys = {
  all: ['mailboxes'] as const,
  list: () => [...mailboxKeys.all, 'list'] as const,
};
