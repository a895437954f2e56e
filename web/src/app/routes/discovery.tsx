import { PageHeader } from '@/components/ui/page-header';
import { DiscoveryForm } from '@/features/discovery/components/discovery-form';
import { ScanProgress } from '@/features/discovery/components/scan-progress';
import { ScanResults } from '@/features/discovery/components/scan-results';
import { useDiscoveryScan } from '@/features/discovery/hooks/use-discovery-scan';

/** Prospect Discovery (seed 000 §2.8): a scan runs as a job; the page follows it and finds it again after a reload. */
export function DiscoveryRoute() {
  const scan = useDiscoveryScan();
  return (
    <div className="space-y-6">
      <title>Prospect Discovery · Prospector</title>
      <PageHeader title="Prospect Discovery" description="Find companies and their decision makers by region, or by city and state." />
      <DiscoveryForm pending={scan.pending} result={scan.result} onStart={(request) => scan.start(request)} />
      {scan.jobId ? <ScanProgress key={scan.jobId} jobId={scan.jobId} startedHere={scan.startedHere} /> : null}
      {scan.result ? <ScanResults result={scan.result} /> : null}
    </div>
  );
}
