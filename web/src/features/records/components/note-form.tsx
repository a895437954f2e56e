import { useState, type SubmitEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { Card } from '@/components/ui/states';
import type { RecordType } from '@/config/paths';
import { fieldErrorsOf, serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useCreateNote } from '../api/create-note';

export const NOTE_MAX_CHARS = 10_000;

/** "Add note": a note on the record; it appears in the timeline once saved. */
export function NoteForm({ type, id }: { type: RecordType; id: string }) {
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | undefined>();
  const create = useCreateNote({
    onSuccess: () => {
      setBody('');
      setError(undefined);
      toast({ title: 'Note Added', variant: 'success' });
    },
    onError: (e) => {
      const errors = fieldErrorsOf(e);
      setError(errors.body ?? serverMessageOr(e, 'The note could not be saved.'));
    },
  });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!body.trim()) {
      setError('Write something first.');
      return;
    }
    create.mutate({ entityType: type, entityId: id, body });
  };
  return (
    <Card title="Add note">
      <form aria-label="Add note" onSubmit={submit} className="space-y-2">
        <Field label="Note" error={error}>
          <textarea
            rows={3}
            maxLength={NOTE_MAX_CHARS}
            value={body}
            onChange={(e) => {
              setBody(e.target.value);
              if (error) setError(undefined);
            }}
            className={`mt-1 ${inputClass}`}
            placeholder="What happened, what was agreed, what comes next…"
          />
        </Field>
        <div className="flex justify-end">
          <Button type="submit" size="sm" disabled={create.isPending}>
            {create.isPending ? 'Saving…' : 'Add note'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
