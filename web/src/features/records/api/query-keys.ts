import type { RecordType } from '@/config/paths';

/**
 * Query keys of a record's page: `record(type, id)` covers its timeline, related lists and tasks,
 * and is refreshed after every change made on the page.
 */
export const recordsKeys = {
  all: ['records'] as const,
  record: (type: RecordType, id: string) => [...recordsKeys.all, type, id] as const,
  timeline: (type: RecordType, id: string, show: TimelineShow) => [...recordsKeys.record(type, id), 'timeline', show] as const,
  notes: (type: RecordType, id: string) => [...recordsKeys.record(type, id), 'notes'] as const,
  related: (type: RecordType, id: string) => [...recordsKeys.record(type, id), 'related'] as const,
  tasks: (type: RecordType, id: string, status: TaskStatusFilter) => [...recordsKeys.record(type, id), 'tasks', status] as const,
  /** The signed-in user's open tasks across records (the dashboard). */
  myTasks: () => [...recordsKeys.all, 'my-tasks'] as const,
};

export type TaskStatusFilter = 'open' | 'done' | 'all';
/** What the timeline shows: everything, or one kind of item (docs/records.md). */
export type TimelineShow = 'all' | 'emails' | 'calls' | 'meetings' | 'notes' | 'tasks';
