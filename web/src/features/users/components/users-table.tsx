import { Button } from '@/components/ui/button';
import { serverMessageOr } from '@/lib/api-client';
import { formatWhen } from '@/lib/format';
import { toast } from '@/stores/toasts';

import { useUpdateUser, type UserChange } from '../api/update-user';
import type { ManagedUser } from '../api/types';

import { fullName } from './format';

const doneTitle = (change: UserChange) =>
  change.disabled === true
    ? 'User disabled'
    : change.disabled === false
      ? 'User enabled'
      : change.role === 'admin'
        ? 'Admin rights given'
        : 'Admin rights removed';

type UsersTableProps = {
  users: ManagedUser[];
  /** The signed-in admin: they cannot disable or demote themselves. */
  selfId: string | undefined;
  onResetPassword: (user: ManagedUser) => void;
};

export function UsersTable({ users, selfId, onResetPassword }: UsersTableProps) {
  const update = useUpdateUser({
    onSuccess: (u, change) => toast({ title: doneTitle(change), description: u.email, variant: 'success' }),
    onError: (error) =>
      toast({ title: 'Could not change the user', description: serverMessageOr(error, 'Update failed'), variant: 'destructive' }),
  });
  const change = (u: ManagedUser, c: UserChange) => update.mutate({ id: u.id, change: c });
  const busy = (u: ManagedUser) => update.isPending && update.variables.id === u.id;

  return (
    <div className="overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Users</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase">
          <tr>
            <th scope="col" className="px-4 py-3">Name</th>
            <th scope="col" className="px-4 py-3">Email</th>
            <th scope="col" className="px-4 py-3">Role</th>
            <th scope="col" className="px-4 py-3">Status</th>
            <th scope="col" className="px-4 py-3">Created</th>
            <th scope="col" className="px-4 py-3">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {users.map((u) => {
            const self = u.id === selfId;
            return (
              <tr key={u.id}>
                <td className="px-4 py-3 font-medium text-slate-900">
                  {fullName(u) || '—'}
                  {self ? <span className="ml-1.5 text-xs font-normal text-slate-500">(you)</span> : null}
                </td>
                <td className="px-4 py-3 text-slate-700">{u.email}</td>
                <td className="px-4 py-3">
                  {u.role === 'admin' ? 'Admin' : 'User'}
                  {u.adminByConfig ? <span className="ml-1 text-xs text-slate-500">(ADMIN_EMAILS)</span> : null}
                </td>
                <td className="px-4 py-3">
                  {u.disabled ? (
                    <span className="rounded bg-rose-50 px-1.5 py-0.5 text-xs font-medium text-rose-700">Disabled</span>
                  ) : (
                    <span className="rounded bg-emerald-50 px-1.5 py-0.5 text-xs font-medium text-emerald-700">Active</span>
                  )}
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-600">
                  <time dateTime={u.createdAt}>{formatWhen(u.createdAt)}</time>
                </td>
                <td className="px-4 py-3">
                  <div className="flex flex-wrap justify-end gap-2">
                    <Button
                      size="sm"
                      variant={u.disabled ? 'secondary' : 'danger'}
                      aria-label={`${u.disabled ? 'Enable' : 'Disable'} ${u.email}`}
                      title={self ? 'You cannot disable your own account' : undefined}
                      disabled={self || busy(u)}
                      onClick={() => change(u, { disabled: !u.disabled })}
                    >
                      {u.disabled ? 'Enable' : 'Disable'}
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={`${u.role === 'admin' ? 'Make user' : 'Make admin'} ${u.email}`}
                      title={
                        self
                          ? 'You cannot remove your own admin rights'
                          : u.adminByConfig
                            ? 'An admin through ADMIN_EMAILS'
                            : undefined
                      }
                      disabled={(u.role === 'admin' && (self || u.adminByConfig)) || busy(u)}
                      onClick={() => change(u, { role: u.role === 'admin' ? 'user' : 'admin' })}
                    >
                      {u.role === 'admin' ? 'Make user' : 'Make admin'}
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={`Reset password for ${u.email}`}
                      onClick={() => onResetPassword(u)}
                    >
                      Reset password
                    </Button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
