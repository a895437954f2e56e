import { useId, useState, type SubmitEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, inputClass } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { FormError } from '@/components/ui/form-error';
import { Skeleton } from '@/components/ui/states';
import { fieldErrorsOf } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useCreateWebhook } from '../api/create-webhook';
import { useWebhookEventTypes } from '../api/get-event-types';
import type { WebhookEndpointWithSecret, WebhookEventName } from '../api/types';

import { groupEvents } from './event-labels';
import { SecretReveal } from './secret-reveal';

/** The server's limits (`jobs::domain::webhooks`), checked here first. */
export const MAX_URL = 2000;
export const MAX_DESCRIPTION = 500;

type Errors = { url?: string; description?: string; eventTypes?: string };

function check(url: string, description: string, events: string[]): Errors {
  const errors: Errors = {};
  if (!url) errors.url = 'URL is required';
  else if (url.length > MAX_URL) errors.url = `URL must be at most ${MAX_URL} characters`;
  else if (!/^https?:\/\/[^\s/]+/i.test(url)) errors.url = 'Enter a full URL, e.g. https://example.com/webhooks';
  if (description.length > MAX_DESCRIPTION) errors.description = `Description must be at most ${MAX_DESCRIPTION} characters`;
  if (events.length === 0) errors.eventTypes = 'Choose at least one event';
  return errors;
}

/** Adds an endpoint: URL, description and events; then shows its signing secret once. */
export function CreateWebhookDialog({ onClose }: { onClose: () => void }) {
  const catalogue = useWebhookEventTypes();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventName[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [created, setCreated] = useState<WebhookEndpointWithSecret | null>(null);
  const eventsErrorId = useId();
  const create = useCreateWebhook({
    onSuccess: (endpoint) => {
      setCreated(endpoint);
      toast({ title: 'Endpoint added', description: endpoint.url, variant: 'success' });
    },
  });
  const server = fieldErrorsOf(create.error);
  const shown: Errors = {
    url: errors.url ?? server.url,
    description: errors.description ?? server.description,
    eventTypes: errors.eventTypes ?? server.eventTypes,
  };

  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const trimmed = url.trim();
    const found = check(trimmed, description.trim(), events);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate({ url: trimmed, description: description.trim() || null, eventTypes: events });
  };
  const toggle = (type: WebhookEventName, on: boolean) =>
    setEvents((current) => (on ? [...current, type] : current.filter((t) => t !== type)));

  if (created) {
    return (
      <Dialog
        open
        onOpenChange={(open) => !open && onClose()}
        title="Endpoint added"
        description={`Events now go to ${created.url}.`}
      >
        <div className="space-y-4">
          <SecretReveal secret={created.secret} />
          <div className="flex justify-end">
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Add endpoint"
      description="Prospector POSTs each chosen event to this URL, signed with a secret shown once."
      size="lg"
    >
      <form noValidate aria-label="Add endpoint" className="space-y-4" onSubmit={submit}>
        <Field label="URL" error={shown.url} hint="https:// and a public address.">
          <input
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://example.com/webhooks/prospector"
            className={inputClass}
            aria-required="true"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </Field>
        <Field label="Description" error={shown.description}>
          <input className={inputClass} value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <fieldset aria-describedby={shown.eventTypes ? eventsErrorId : undefined}>
          <legend className="text-sm font-medium text-slate-900">Events</legend>
          {catalogue.isPending ? (
            <Skeleton rows={2} label="Loading events" />
          ) : catalogue.isError ? (
            <p role="alert" className="text-sm text-rose-700">
              Could not load the events.
            </p>
          ) : (
            <div className="mt-2 grid gap-3 sm:grid-cols-2">
              {groupEvents(catalogue.data).map(({ group, events: inGroup }) => (
                <fieldset key={group} className="rounded-md p-2 ring-1 ring-slate-200">
                  <legend className="px-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">{group}</legend>
                  <ul className="space-y-1">
                    {inGroup.map((e) => (
                      <li key={e.type}>
                        <label className="flex items-center gap-2 text-sm text-slate-800">
                          <input
                            type="checkbox"
                            className="h-4 w-4 rounded border-slate-300"
                            checked={events.includes(e.type)}
                            onChange={(ev) => toggle(e.type, ev.target.checked)}
                          />
                          <span>{e.label}</span>
                          <span className="font-mono text-xs text-slate-500">{e.type}</span>
                        </label>
                      </li>
                    ))}
                  </ul>
                </fieldset>
              ))}
            </div>
          )}
          {shown.eventTypes ? (
            <p id={eventsErrorId} className="mt-1 text-sm text-rose-600">
              {shown.eventTypes}
            </p>
          ) : null}
        </fieldset>
        <FormError error={create.error} />
        <FormActions onCancel={onClose} pending={create.isPending} label="Add endpoint" pendingLabel="Adding…" />
      </form>
    </Dialog>
  );
}
