import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { useAuthUser } from '@/features/auth/api/get-auth-user';
import { useUsers } from '@/features/users/api/get-users';
import type { ManagedUser } from '@/features/users/api/types';
import { AddUserDialog } from '@/features/users/components/add-user-dialog';
import { ResetPasswordDialog } from '@/features/users/components/reset-password-dialog';
import { UsersTable } from '@/features/users/components/users-table';

/** The admin's accounts screen: add users, disable and enable them, change roles, reset passwords. */
export function UsersRoute() {
  const users = useUsers();
  const session = useAuthUser();
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<ManagedUser | null>(null);

  return (
    <div className="space-y-6">
      <title>Users · Prospector</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Users</h1>
          <p className="mt-1 text-sm text-slate-500">
            Who can sign in. Users sign in at /login, admins at /admin/login.
          </p>
        </div>
        <Button onClick={() => setAdding(true)}>Add user</Button>
      </div>
      {users.isPending ? (
        <Skeleton rows={3} label="Loading users" />
      ) : users.isError ? (
        <ErrorState title="Failed to load users" error={users.error} onRetry={() => void users.refetch()} />
      ) : users.data.length === 0 ? (
        <EmptyState title="No users yet" />
      ) : (
        <UsersTable users={users.data} selfId={session.data?.id} onResetPassword={setResetting} />
      )}
      {adding ? <AddUserDialog onClose={() => setAdding(false)} /> : null}
      {resetting ? <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} /> : null}
    </div>
  );
}
