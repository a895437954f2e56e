import type { WebhookEventType } from '../api/types';

/** A label for every event name, from the server's catalogue; the test event has its own. */
export function eventLabeller(catalogue: WebhookEventType[] | undefined): (type: string) => string {
  const labels = new Map<string, string>((catalogue ?? []).map((e) => [e.type, e.label]));
  labels.set('webhook.test', 'Test event');
  return (type) => labels.get(type) ?? type;
}

/** The catalogue by group, in the server's order. */
export function groupEvents(catalogue: WebhookEventType[]): { group: string; events: WebhookEventType[] }[] {
  const groups: { group: string; events: WebhookEventType[] }[] = [];
  for (const e of catalogue) {
    const last = groups.at(-1);
    if (last?.group === e.group) last.events.push(e);
    else groups.push({ group: e.group, events: [e] });
  }
  return groups;
}
