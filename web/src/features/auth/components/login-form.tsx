import { useId, useState, type SubmitEvent } from 'react';

import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';

import { useAdminLogin } from '../api/login';
import { useUserLogin } from '../api/user-login';

export const LOGIN_FAILED_FALLBACK = 'Login failed';
export const EMAIL_REQUIRED = 'Email is required';
export const PASSWORD_REQUIRED = 'Password is required';

/** Seed §7.2: the server's message when it sent one, else 'Login failed'. */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  return LOGIN_FAILED_FALLBACK;
}

type FieldErrors = { email?: string; password?: string };

type LoginFormProps = {
  /** `admin` opens an admin session (POST /api/admin/login), `user` an ordinary one (POST /api/login). */
  variant?: 'admin' | 'user';
  onSuccess: () => void | Promise<void>;
};

export function LoginForm({ variant = 'admin', onSuccess }: LoginFormProps) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const adminLogin = useAdminLogin({ onSuccess });
  const userLogin = useUserLogin({ onSuccess });
  const login = variant === 'admin' ? adminLogin : userLogin;

  const validate = (values: { email: string; password: string }): FieldErrors => ({
    ...(values.email.trim() === '' ? { email: EMAIL_REQUIRED } : {}),
    ...(values.password === '' ? { password: PASSWORD_REQUIRED } : {}),
  });

  const handleSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const errors = validate({ email, password });
    setFieldErrors(errors);
    if (errors.email || errors.password) return;
    login.reset();
    login.mutate({ email: email.trim(), password });
  };

  const emailErrorId = `${id}-email-error`;
  const passwordErrorId = `${id}-password-error`;
  const inputClass =
    'block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs ring-1 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none';

  return (
    <form noValidate onSubmit={handleSubmit} aria-label={variant === 'admin' ? 'Admin login' : 'Sign in'} className="space-y-5">
      <div>
        <label htmlFor={`${id}-email`} className="block text-sm font-medium text-slate-900">
          Email
        </label>
        <input
          id={`${id}-email`}
          name="email"
          type="email"
          autoComplete="username"
          required
          aria-required="true"
          aria-invalid={fieldErrors.email ? true : undefined}
          aria-describedby={fieldErrors.email ? emailErrorId : undefined}
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            if (fieldErrors.email) setFieldErrors((f) => ({ ...f, email: undefined }));
          }}
          className={`mt-1.5 ${inputClass} ${fieldErrors.email ? 'ring-rose-500' : 'ring-slate-300'}`}
        />
        {fieldErrors.email ? (
          <p id={emailErrorId} className="mt-1.5 text-sm text-rose-600">
            {fieldErrors.email}
          </p>
        ) : null}
      </div>

      <div>
        <label htmlFor={`${id}-password`} className="block text-sm font-medium text-slate-900">
          Password
        </label>
        <input
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-required="true"
          aria-invalid={fieldErrors.password ? true : undefined}
          aria-describedby={fieldErrors.password ? passwordErrorId : undefined}
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            if (fieldErrors.password) setFieldErrors((f) => ({ ...f, password: undefined }));
          }}
          className={`mt-1.5 ${inputClass} ${fieldErrors.password ? 'ring-rose-500' : 'ring-slate-300'}`}
        />
        {fieldErrors.password ? (
          <p id={passwordErrorId} className="mt-1.5 text-sm text-rose-600">
            {fieldErrors.password}
          </p>
        ) : null}
      </div>

      {login.isError ? (
        <div
          role="alert"
          className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800"
        >
          {loginErrorMessage(login.error)}
        </div>
      ) : null}

      <Button type="submit" className="w-full" disabled={login.isPending}>
        {login.isPending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
