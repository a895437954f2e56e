/** Shapes of the Prospector HTTP API, as the server sends them (camelCase JSON). */

export type User = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  isAdmin: boolean;
};

export const JOB_STATUSES = [
  'queued',
  'scheduled',
  'running',
  'retrying',
  'succeeded',
  'failed',
  'cancelled',
] as const;

export type JobStatus = (typeof JOB_STATUSES)[number];

export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'cancelled'];
export const CANCELLABLE_JOB_STATUSES: readonly JobStatus[] = [
  'queued',
  'scheduled',
  'running',
  'retrying',
];
export const RETRYABLE_JOB_STATUSES: readonly JobStatus[] = ['failed', 'cancelled'];

export const isTerminalStatus = (status: JobStatus | undefined): boolean =>
  status !== undefined && TERMINAL_JOB_STATUSES.includes(status);

export type JobProgress = {
  percent: number;
  message: string | null;
};

export type Job = {
  id: string;
  kind: string;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  progress: JobProgress | null;
  result: unknown;
  error: string | null;
  createdAt: string;
  runAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};

export type QueueStats = {
  kind: string;
  queued: number;
  scheduled: number;
  running: number;
  retrying: number;
  succeeded: number;
  failed: number;
  cancelled: number;
  oldestQueuedAgeSeconds: number | null;
  throughputPerMinute: number;
  p50RunMs: number | null;
  p95RunMs: number | null;
};

export type EnqueueResponse = {
  jobId: string;
  status: JobStatus;
};
