import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';

import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { FormError } from '@/components/ui/form-error';
import { toast } from '@/stores/toasts';

import { useResetPassword } from '../api/reset-password';
import type { ManagedUser } from '../api/types';

import { MIN_PASSWORD, passwordSchema } from './add-user-dialog';

const schema = z.object({ password: passwordSchema });
type Values = z.infer<typeof schema>;

export function ResetPasswordDialog({ user, onClose }: { user: ManagedUser; onClose: () => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { password: '' } });
  const reset = useResetPassword({
    onSuccess: () => {
      toast({
        title: 'Password reset',
        description: `${user.email} was signed out everywhere and signs in with the new password.`,
        variant: 'success',
      });
      onClose();
    },
  });

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Reset password for ${user.email}`}
      description="Their sessions end; tell them the new password."
    >
      <form
        noValidate
        aria-label="Reset password"
        className="space-y-4"
        onSubmit={handleSubmit((v) => reset.mutate({ id: user.id, password: v.password }))}
      >
        <Field label="New password" error={errors.password?.message} hint={`At least ${MIN_PASSWORD} characters.`}>
          <input type="password" autoComplete="new-password" className={inputClass} aria-required="true" {...register('password')} />
        </Field>
        <FormError error={reset.error} />
        <FormActions onCancel={onClose} pending={reset.isPending} label="Reset password" pendingLabel="Resetting…" />
      </form>
    </Dialog>
  );
}
