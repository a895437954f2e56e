export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** An account as the admin's Users screen reads it (`GET /api/admin/users`). */
export type ManagedUser = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: Role;
  /** An admin through the server's ADMIN_EMAILS: the role cannot be changed here. */
  adminByConfig: boolean;
  disabled: boolean;
  disabledAt: string | null;
  createdAt: string;
};
