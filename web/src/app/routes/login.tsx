import { Navigate, useNavigate } from 'react-router';

import { FullPageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useAdminUser } from '@/features/auth/api/get-admin-user';
import { LoginForm } from '@/features/auth/components/login-form';

export function LoginRoute() {
  const navigate = useNavigate();
  const adminUser = useAdminUser();
  const adminHome = paths.screens.dashboard.adminPath;

  if (adminUser.isPending) return <FullPageSpinner label="Checking your session" />;
  if (adminUser.data) return <Navigate to={adminHome} replace />;

  return (
    <div className="flex min-h-screen items-center justify-center px-4 py-12">
      <title>Admin login · Prospector</title>
      <div className="w-full max-w-sm">
        <p className="text-center text-2xl font-bold tracking-tight text-indigo-700">Prospector</p>
        <div className="mt-6 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <h1 className="text-lg font-semibold text-slate-900">Admin login</h1>
          <p className="mt-1 mb-5 text-sm text-slate-500">
            Only authorized admin accounts can sign in here.
          </p>
          <LoginForm onSuccess={() => navigate(adminHome, { replace: true })} />
        </div>
      </div>
    </div>
  );
}
