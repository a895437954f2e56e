import { api } from '@/lib/api-client';
import type { paths } from '@/types/openapi.gen';

type CalendarAuthUrl = paths['/api/calendar/auth-url']['get']['responses'][200]['content']['application/json'];

/** `GET /api/calendar/auth-url`: Google's consent page for the popup (409 when not configured). */
export const getCalendarAuthUrl = () => api.get<CalendarAuthUrl>('/api/calendar/auth-url');
