import { api } from '@/lib/api-client';

/** `GET /api/calendar/auth-url`: Google's consent page for the popup (409 when not configured). */
export const getCalendarAuthUrl = () => api.get<{ authUrl: string }>('/api/calendar/auth-url');
