import type { RecordType } from '@/config/paths';

const COLLECTION: Record<RecordType, string> = { company: 'companies', contact: 'contacts', deal: 'deals' };

/** `/api/companies/{id}` and its siblings. */
export const recordApiUrl = (type: RecordType, id: string) => `/api/${COLLECTION[type]}/${encodeURIComponent(id)}`;
