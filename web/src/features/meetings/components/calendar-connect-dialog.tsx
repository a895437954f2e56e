import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ApiError, errorMessage, serverMessageOr } from '@/lib/api-client';
import { toast } from '@/stores/toasts';

import { useCalendarConnection, useDisconnectCalendar } from '../api/calendar-connection';
import { calendarKeys } from '../api/query-keys';
import { getCalendarAuthUrl } from '../api/get-calendar-auth-url';
import { useCalendarFeedUrl } from '../api/get-calendar-feed-url';
import { useRotateCalendarFeedUrl } from '../api/rotate-calendar-feed-url';

export const CONNECT_FAILED = 'Failed to connect to Google Calendar. Please try again.';
/** The seed's popup size. */
const POPUP_FEATURES = 'width=500,height=600';

type PopupMessage = { type?: unknown; success?: unknown; message?: unknown };

const connectionFailed = () =>
  toast({ title: 'Connection Failed', description: CONNECT_FAILED, variant: 'destructive' });

/**
 * Connects Google Calendar through the consent popup. The popup's last page posts
 * `{type: 'google-calendar-auth', success}` to this window; only messages from this origin count.
 * The tokens stay on the server. Without Google configured, it offers the ICS feed instead.
 */
export function CalendarConnectDialog({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const connection = useCalendarConnection();
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const feed = useCalendarFeedUrl(unavailable !== null || connection.data?.configured === false);
  const rotate = useRotateCalendarFeedUrl({
    onSuccess: () => toast({ title: 'Feed Link Reset', description: 'Subscribe again with the new link.', variant: 'success' }),
    onError: (error) => toast({ title: 'Reset Failed', description: errorMessage(error), variant: 'destructive' }),
  });
  const disconnect = useDisconnectCalendar({
    onSuccess: () => toast({ title: 'Calendar Disconnected', variant: 'success' }),
  });

  useEffect(() => {
    const onMessage = (event: MessageEvent<PopupMessage>) => {
      if (event.origin !== window.location.origin || event.data.type !== 'google-calendar-auth') return;
      if (event.data.success === true) {
        void queryClient.invalidateQueries({ queryKey: calendarKeys.connection() });
        toast({ title: 'Calendar Connected', description: 'Meetings can now be synced to Google Calendar.', variant: 'success' });
        onClose();
      } else {
        connectionFailed();
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [queryClient, onClose]);

  const connect = async () => {
    try {
      const { authUrl } = await getCalendarAuthUrl();
      if (!window.open(authUrl, 'calendar-auth', POPUP_FEATURES)) {
        toast({ title: 'Pop-up Blocked', description: 'Allow pop-ups for this site to connect Google Calendar.', variant: 'destructive' });
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setUnavailable(serverMessageOr(error, CONNECT_FAILED));
      else connectionFailed();
    }
  };

  const data = connection.data;
  const notConfigured = unavailable ?? (data?.configured === false ? 'Google Calendar is not configured on this server.' : null);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Google Calendar" description="Sync meetings to your calendar with a Google Meet link.">
      <div className="space-y-4 text-sm">
        {notConfigured ? (
          <div className="space-y-2">
            <p role="status">{notConfigured}</p>
            {feed.data ? (
              <div>
                <label htmlFor="calendar-feed-url" className="block font-medium text-slate-700">
                  Calendar feed (any calendar app can subscribe)
                </label>
                <div className="mt-1 flex gap-2">
                  <input id="calendar-feed-url" readOnly value={feed.data.url} className="min-w-0 flex-1 rounded-md px-2 py-1.5 ring-1 ring-slate-300" />
                  <Button
                    variant="secondary"
                    onClick={() =>
                      void navigator.clipboard
                        .writeText(feed.data.url)
                        .then(() => toast({ title: 'Link Copied', variant: 'success' }))
                    }
                  >
                    Copy
                  </Button>
                  <Button variant="secondary" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
                    Reset link
                  </Button>
                </div>
                <p className="mt-1 text-xs text-slate-500">
                  Keep this link private. Reset link makes a new one; the old link stops working at once.
                </p>
              </div>
            ) : null}
          </div>
        ) : data?.connected ? (
          <div className="space-y-3">
            <p>
              Connected{data.accountEmail ? ` as ${data.accountEmail}` : ''}.
            </p>
            <Button variant="secondary" onClick={() => disconnect.mutate()} disabled={disconnect.isPending}>
              Disconnect
            </Button>
          </div>
        ) : (
          <div className="space-y-3">
            {data?.error ? (
              <p role="alert" className="text-rose-700">
                {data.error}
              </p>
            ) : (
              <p>No calendar is connected yet.</p>
            )}
            <Button onClick={() => void connect()}>Connect Google Calendar</Button>
          </div>
        )}
      </div>
    </Dialog>
  );
}
