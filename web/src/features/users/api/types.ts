import type { paths } from '@/types/openapi.gen';

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * An account as the admin's Users screen reads it (`GET /api/admin/users`); `adminByConfig`: an
 * admin through the server's ADMIN_EMAILS, whose role cannot be changed here.
 */
export type ManagedUser = paths['/api/admin/users']['get']['responses'][200]['content']['application/json'][number];
