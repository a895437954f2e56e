import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { PageHeader } from '@/components/ui/page-header';
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
      <PageHeader
        title="Users"
        count={users.data?.length}
        description="Who can sign in. Users sign in at /login, admins at /admin/login."
        action={<Button onClick={() => setAdding(true)}>Add user</Button>}
      />
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
