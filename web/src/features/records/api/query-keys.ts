import type { RecordType } from '@/config/paths';

/**
 * Query keys of a record's page: `record(type, id)` covers its timeline, related lists and tasks,
 * and is refreshed after every change made on the page.
 */
export const recordsKeys = {
  all: ['records'] as const,
  record: (type: RecordType, id: string) => [...recordsKeys.all, type, id] as const,
  timeline: (type: RecordType, id: string) => [...recordsKeys.record(type, id), 'timeline'] as const,
  related: (type: RecordType, id: string) => [...recordsKeys.record(type, id), 'related'] as const,
  tasks: (type: RecordType, id: string, status: TaskStatusFilter) => [...recordsKeys.record(type, id), 'tasks', status] as const,
  /** The signed-in user's open tasks across records (the dashboard). */
  myTasks: () => [...recordsKeys.all, 'my-tasks'] as const,
};

export type TaskStatusFilter = 'open' | 'done' | 'all';
