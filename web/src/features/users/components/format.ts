import type { ManagedUser } from '../api/types';

export const fullName = (u: Pick<ManagedUser, 'firstName' | 'lastName'>) =>
  [u.firstName, u.lastName].filter(Boolean).join(' ');
