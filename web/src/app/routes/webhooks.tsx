import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { PageHeader } from '@/components/ui/page-header';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/states';
import { errorMessage, serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { useDeleteWebhook } from '@/features/webhooks/api/delete-webhook';
import { useWebhookEventTypes } from '@/features/webhooks/api/get-event-types';
import { useWebhooks } from '@/features/webhooks/api/get-webhooks';
import { useRotateSecret } from '@/features/webhooks/api/rotate-secret';
import { useSendTestEvent } from '@/features/webhooks/api/send-test-event';
import type { WebhookEndpoint, WebhookEndpointWithSecret } from '@/features/webhooks/api/types';
import { useUpdateWebhook } from '@/features/webhooks/api/update-webhook';
import { CreateWebhookDialog } from '@/features/webhooks/components/create-webhook-dialog';
import { DeliveriesTable } from '@/features/webhooks/components/deliveries-table';
import { DisabledNotice } from '@/features/webhooks/components/disabled-notice';
import { eventLabeller } from '@/features/webhooks/components/event-labels';
import { EndpointsList } from '@/features/webhooks/components/endpoints-list';
import { SecretReveal } from '@/features/webhooks/components/secret-reveal';

/**
 * The admin's outbound webhooks (docs/webhooks.md): endpoints and their status, a notice for
 * disabled ones, and the chosen endpoint's deliveries (`?endpoint=` keeps the choice).
 */
export function WebhooksRoute() {
  const endpoints = useWebhooks();
  const catalogue = useWebhookEventTypes();
  const label = eventLabeller(catalogue.data);
  const [search, setSearch] = useSearchParams();
  const [adding, setAdding] = useState(false);
  const [rotating, setRotating] = useState<WebhookEndpoint | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [secret, setSecret] = useState<WebhookEndpointWithSecret | null>(null);

  const select = (e: WebhookEndpoint) =>
    setSearch(
      (params) => {
        params.set('endpoint', e.id);
        return params;
      },
      { replace: true },
    );
  const update = useUpdateWebhook({
    onSuccess: (e, change) =>
      toast({ title: change.enabled ? 'Endpoint enabled' : 'Endpoint disabled', description: e.url, variant: 'success' }),
    onError: (error) =>
      toast({ title: 'Could not change the endpoint', description: serverMessageOr(error, 'Update failed'), variant: 'destructive' }),
  });
  const test = useSendTestEvent({
    onSuccess: () => toast({ title: 'Test event queued', description: 'Its delivery is listed below.', variant: 'success' }),
    onError: (error) =>
      toast({ title: 'Could not send a test event', description: serverMessageOr(error, 'Test failed'), variant: 'destructive' }),
  });
  const rotate = useRotateSecret({
    onSuccess: (e) => {
      setRotating(null);
      setSecret(e);
      toast({ title: 'Secret rotated', description: 'The old secret no longer signs events.', variant: 'success' });
    },
  });
  const remove = useDeleteWebhook({
    onSuccess: () => {
      setDeleting(null);
      toast({ title: 'Endpoint deleted', variant: 'success' });
    },
  });
  const busyId = update.isPending ? update.variables.id : test.isPending ? test.variables : null;
  const enable = (e: WebhookEndpoint) => update.mutate({ id: e.id, change: { enabled: true } });

  const list = endpoints.data ?? [];
  const selected = list.find((e) => e.id === search.get('endpoint')) ?? list[0];

  return (
    <div className="space-y-6">
      <title>Webhooks · Prospector</title>
      <PageHeader
        title="Webhooks"
        description="Endpoints that receive Prospector's events as signed HTTPS requests, retried for about a day."
        action={<Button onClick={() => setAdding(true)}>Add endpoint</Button>}
      />
      {endpoints.isPending ? (
        <Skeleton rows={3} label="Loading endpoints" />
      ) : endpoints.isError ? (
        <ErrorState title="Failed to load endpoints" error={endpoints.error} onRetry={() => void endpoints.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState title="No endpoints yet">Add one to have contacts, deals, email and payments sent to your systems.</EmptyState>
      ) : (
        <>
          <DisabledNotice endpoints={list} onEnable={enable} busyId={busyId} />
          <EndpointsList
            endpoints={list}
            label={label}
            selectedId={selected?.id ?? null}
            busyId={busyId}
            onSelect={select}
            onTest={(e) => {
              select(e);
              test.mutate(e.id);
            }}
            onToggle={(e) => update.mutate({ id: e.id, change: { enabled: !e.enabled } })}
            onRotate={setRotating}
            onDelete={setDeleting}
          />
          {selected ? (
            <section aria-labelledby="deliveries-heading" className="space-y-3">
              <h2 id="deliveries-heading" className="text-lg font-semibold break-all text-slate-900">
                Deliveries to {selected.url}
              </h2>
              <DeliveriesTable key={selected.id} endpoint={selected} label={label} />
            </section>
          ) : null}
        </>
      )}
      {adding ? <CreateWebhookDialog onClose={() => setAdding(false)} /> : null}
      {rotating ? (
        <ConfirmDialog
          title="Rotate the signing secret?"
          description={`${rotating.url} gets a new secret at once; requests signed with the old one stop. Update your receiver with the new secret.`}
          confirmLabel="Rotate secret"
          pending={rotate.isPending}
          error={rotate.error ? errorMessage(rotate.error) : undefined}
          onConfirm={() => rotate.mutate(rotating.id)}
          onCancel={() => {
            rotate.reset();
            setRotating(null);
          }}
        />
      ) : null}
      {secret ? (
        <Dialog open onOpenChange={(open) => !open && setSecret(null)} title="New signing secret" description={secret.url}>
          <div className="space-y-4">
            <SecretReveal secret={secret.secret} />
            <div className="flex justify-end">
              <Button onClick={() => setSecret(null)}>Done</Button>
            </div>
          </div>
        </Dialog>
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title="Delete this endpoint?"
          description={`${deleting.url} stops receiving events, and its deliveries are deleted with it.`}
          confirmLabel="Delete endpoint"
          danger
          pending={remove.isPending}
          error={remove.error ? errorMessage(remove.error) : undefined}
          onConfirm={() => remove.mutate(deleting.id)}
          onCancel={() => {
            remove.reset();
            setDeleting(null);
          }}
        />
      ) : null}
    </div>
  );
}
