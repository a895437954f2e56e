import {
  Activity,
  Bot,
  BrainCircuit,
  Building,
  CalendarDays,
  CopyCheck,
  FileClock,
  Kanban,
  LayoutDashboard,
  ListOrdered,
  Magnet,
  Mail,
  Megaphone,
  Phone,
  Radar,
  Receipt,
  Settings,
  Sparkles,
  UserCheck,
  UserCog,
  Users,
  Webhook,
  type LucideIcon,
} from 'lucide-react';

import { ADMIN_SCREENS, paths, type ScreenName } from '@/config/paths';

/**
 * The navigation groups of seed 000 §2.2, holding only the screens built so far
 * (a group with none is left out). Ops is the job-queue dashboard.
 */
export const NAV_GROUPS: { label: string; items: ScreenName[] }[] = [
  { label: 'Analytics', items: ['dashboard', 'discovery', 'pipeline', 'ops'] },
  { label: 'Customer Management', items: ['leads', 'customers', 'contacts', 'companies', 'duplicates'] },
  { label: 'Campaign Tools', items: ['campaigns', 'emailCampaigns', 'emailSequences', 'meetings', 'voiceAgents', 'automation', 'aiManagement', 'aiFeatures'] },
  { label: 'Business Tools', items: ['invoicing', 'invoiceHistory'] },
  { label: 'Admin', items: ['users', 'webhooks'] },
];

/** One icon per screen, in the sidebar and the command palette. */
export const SCREEN_ICONS: Record<ScreenName, LucideIcon> = {
  dashboard: LayoutDashboard,
  discovery: Radar,
  pipeline: Kanban,
  ops: Activity,
  leads: Magnet,
  customers: UserCheck,
  contacts: Users,
  companies: Building,
  duplicates: CopyCheck,
  campaigns: Megaphone,
  emailCampaigns: Mail,
  emailSequences: ListOrdered,
  meetings: CalendarDays,
  voiceAgents: Phone,
  automation: Bot,
  aiManagement: BrainCircuit,
  aiFeatures: Sparkles,
  emailConfig: Settings,
  invoicing: Receipt,
  invoiceHistory: FileClock,
  users: UserCog,
  webhooks: Webhook,
};

/** The groups a session sees: an ordinary session has no admin screens (and no group left empty). */
export function navGroups(adminSession: boolean) {
  return NAV_GROUPS.map((g) => ({
    ...g,
    items: g.items.filter((name) => adminSession || !ADMIN_SCREENS.includes(name)),
  })).filter((g) => g.items.length > 0);
}

/** Every screen a session may open, in navigation order, then those outside the navigation. */
export function visibleScreens(adminSession: boolean): ScreenName[] {
  const listed = navGroups(adminSession).flatMap((g) => g.items);
  const rest = (Object.keys(paths.screens) as ScreenName[]).filter(
    (name) => !listed.includes(name) && (adminSession || !ADMIN_SCREENS.includes(name)),
  );
  return [...listed, ...rest];
}

/** Whether `name` is the screen at `pathname` (a record page counts as its list's screen). */
export function isCurrent(name: ScreenName, pathname: string): boolean {
  const { path, adminPath } = paths.screens[name];
  if (name === 'dashboard') return [path, adminPath, paths.adminDashboard].includes(pathname);
  // A deal's page belongs to the pipeline.
  if (name === 'pipeline' && /^(\/admin)?\/deals\//.test(pathname)) return true;
  return pathname === path || pathname === adminPath || pathname.startsWith(`${path}/`) || pathname.startsWith(`${adminPath}/`);
}
