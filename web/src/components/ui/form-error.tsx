import { errorMessage } from '@/lib/api-client';

/** Why a form's last request failed, announced to screen readers; nothing when it did not. */
export function FormError({ error }: { error: Error | null }) {
  if (!error) return null;
  return (
    <p role="alert" className="text-sm text-rose-700">
      {errorMessage(error)}
    </p>
  );
}
