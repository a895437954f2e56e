import { useRef, useState, type SubmitEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { useJobOutcome } from '@/features/jobs/hooks/use-job-outcome';
import { serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import type { Contact, Job } from '@/types/api';

import { contactsKeys } from '../api/query-keys';
import { CONTACT_MERGE_FIELDS, useSendContactEmail } from '../api/send-contact-email';

/** What the email_send job reports: the message's status in the ledger. */
type SendResult = { messageId: string; status: string };

/** Why a finished send job did not deliver, or null when the message went out or waits its turn. */
export function sendFailure(job: Job): string | null {
  if (job.status !== 'succeeded') return job.error ?? `The send job was ${job.status}.`;
  const status = (job.result as SendResult | null)?.status;
  if (status === 'sent' || status === 'queued' || status === 'deferred') return null;
  return `The email was not sent (${status ?? 'unknown'}). Its reason is in the email history.`;
}

/**
 * Email one contact through `POST /api/contacts/email`: the message is logged in the contact's
 * email history and sent by the mailer as a job, which the dialog follows to the end.
 */
export function EmailContactDialog({ contact, onClose }: { contact: Contact; onClose: () => void }) {
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const body = useRef<HTMLTextAreaElement>(null);
  const name = `${contact.firstName} ${contact.lastName}`;

  const send = useSendContactEmail({
    onSuccess: (a) => setJobId(a.jobId),
    onError: (e) => setError(serverMessageOr(e, 'Failed to send the email.')),
  });
  useJobOutcome(jobId, {
    onDone: (job) => {
      setJobId(null);
      const failure = sendFailure(job);
      if (failure) {
        setError(failure);
        return;
      }
      const waiting = (job.result as SendResult | null)?.status !== 'sent';
      toast({
        title: waiting ? 'Email Queued' : 'Email Sent',
        description: waiting ? `The email to ${name} goes out when the sending limits allow.` : `Your email to ${name} was sent.`,
        variant: 'success',
      });
      onClose();
    },
    onError: (e) => {
      setJobId(null);
      setError(`Could not follow the send job: ${e.message}`);
    },
    invalidate: [contactsKeys.emailHistory(contact.id), contactsKeys.lists()],
  });

  const insert = (token: string) => {
    const el = body.current;
    const at = el?.selectionStart ?? message.length;
    const end = el?.selectionEnd ?? at;
    setMessage(message.slice(0, at) + token + message.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + token.length, at + token.length);
    });
  };

  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    setError(null);
    if (!subject.trim() || !message.trim()) {
      setError('Subject and message are required.');
      return;
    }
    send.mutate({ contactId: contact.id, subject: subject.trim(), message: message.trim() });
  };

  const busy = send.isPending || jobId !== null;
  return (
    <Dialog open onOpenChange={(open) => !open && !busy && onClose()} title={`Email ${name}`} size="lg">
      <form className="space-y-3" onSubmit={submit} aria-label={`Email ${name}`}>
        <Field label="To">
          <input className={`${inputClass} bg-slate-50`} readOnly value={contact.email ? `${name} <${contact.email}>` : `${name} (no email address)`} />
        </Field>
        <Field label="Subject">
          <input className={inputClass} value={subject} maxLength={300} onChange={(e) => setSubject(e.target.value)} />
        </Field>
        <Field label="Message" hint="Merge fields such as {{firstName}} are filled in for this contact when the email is sent.">
          <textarea ref={body} className={`${inputClass} min-h-40`} value={message} onChange={(e) => setMessage(e.target.value)} />
        </Field>
        <Field label="Insert field" className="max-w-xs">
          <Select
            value=""
            placeholder="Choose a field…"
            onValueChange={(token) => {
              if (token) insert(token);
            }}
            options={CONTACT_MERGE_FIELDS.map((f) => [f.token, `${f.label} ${f.token}`] as const)}
          />
        </Field>
        {error ? (
          <p role="alert" className="rounded-md bg-rose-50 p-3 text-sm text-rose-700">
            {error}
          </p>
        ) : null}
        {jobId ? (
          <p role="status" className="text-sm text-slate-600">
            Sending…
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Sending…' : 'Send email'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
