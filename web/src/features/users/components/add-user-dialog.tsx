import { zodResolver } from '@hookform/resolvers/zod';
import { useController, useForm } from 'react-hook-form';
import { z } from 'zod';

import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { FormError } from '@/components/ui/form-error';
import { Select } from '@/components/ui/select';
import { toast } from '@/stores/toasts';

import { useCreateUser } from '../api/create-user';
import { ROLES } from '../api/types';

/** The server's rules (`jobs::domain::users`), checked here first so a mistake needs no round trip. */
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 1024;

export const passwordSchema = z
  .string()
  .min(1, 'Password is required')
  .min(MIN_PASSWORD, `Password must be at least ${MIN_PASSWORD} characters`)
  .max(MAX_PASSWORD, `Password must be at most ${MAX_PASSWORD} characters`);

export const newUserSchema = z.object({
  email: z.string().trim().min(1, 'Email is required').pipe(z.email('Enter a valid email address')),
  firstName: z.string().trim().max(100, 'First name must be at most 100 characters'),
  lastName: z.string().trim().max(100, 'Last name must be at most 100 characters'),
  password: passwordSchema,
  role: z.enum(ROLES),
});

type FormValues = z.input<typeof newUserSchema>;
type Parsed = z.output<typeof newUserSchema>;

const orNull = (s: string) => (s === '' ? null : s);

export function AddUserDialog({ onClose }: { onClose: () => void }) {
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<FormValues, unknown, Parsed>({
    resolver: zodResolver(newUserSchema),
    defaultValues: { email: '', firstName: '', lastName: '', password: '', role: 'user' },
  });
  const role = useController({ control, name: 'role' });
  const create = useCreateUser({
    onSuccess: (u) => {
      toast({ title: 'User added', description: `${u.email} can now sign in.`, variant: 'success' });
      onClose();
    },
  });

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Add user"
      description="They sign in at /login with this email and password; an admin also at /admin/login."
    >
      <form
        noValidate
        aria-label="Add user"
        className="space-y-4"
        onSubmit={handleSubmit((v) =>
          create.mutate({ ...v, firstName: orNull(v.firstName), lastName: orNull(v.lastName) }),
        )}
      >
        <Field label="Email" error={errors.email?.message}>
          <input type="email" autoComplete="off" className={inputClass} aria-required="true" {...register('email')} />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="First name" error={errors.firstName?.message}>
            <input className={inputClass} {...register('firstName')} />
          </Field>
          <Field label="Last name" error={errors.lastName?.message}>
            <input className={inputClass} {...register('lastName')} />
          </Field>
        </div>
        <Field label="Password" error={errors.password?.message} hint={`At least ${MIN_PASSWORD} characters.`}>
          <input type="password" autoComplete="new-password" className={inputClass} aria-required="true" {...register('password')} />
        </Field>
        <Field label="Role">
          <Select
            {...role.field}
                        options={[
              ['user', 'User'],
              ['admin', 'Admin'],
            ]}
          />
        </Field>
        <FormError error={create.error} />
        <FormActions onCancel={onClose} pending={create.isPending} label="Add user" pendingLabel="Adding…" />
      </form>
    </Dialog>
  );
}
