import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { toast } from '@/stores/toasts';

import { useDownloadReport } from '../api/download-report';
import { dashboardKeys } from '../api/query-keys';

/** Refetches every figure the dashboard shows, and says whether that worked. */
export function RefreshDashboardButton() {
  const queryClient = useQueryClient();
  const [refreshing, setRefreshing] = useState(false);
  const refresh = async () => {
    setRefreshing(true);
    try {
      await queryClient.refetchQueries({ queryKey: dashboardKeys.all, type: 'active' }, { throwOnError: true });
      toast({ title: 'Dashboard Refreshed', description: 'All dashboard data is up to date.', variant: 'success' });
    } catch {
      toast({ title: 'Refresh Failed', description: 'Failed to refresh dashboard data. Please try again.', variant: 'destructive' });
    } finally {
      setRefreshing(false);
    }
  };
  return (
    <Button variant="secondary" onClick={() => void refresh()} disabled={refreshing}>
      {refreshing ? 'Refreshing…' : 'Refresh'}
    </Button>
  );
}

/** Downloads the business-development report. */
export function ExportReportButton() {
  const report = useDownloadReport({
    onSuccess: () =>
      toast({ title: 'Clean Export Completed', description: 'The business-development report was downloaded.', variant: 'success' }),
    onError: () =>
      toast({ title: 'Export Failed', description: 'Unable to generate report. Please try again.', variant: 'destructive' }),
  });
  return (
    <Button onClick={() => report.mutate()} disabled={report.isPending}>
      {report.isPending ? 'Exporting…' : 'Export Report'}
    </Button>
  );
}
