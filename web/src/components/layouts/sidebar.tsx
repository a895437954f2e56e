import { PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';

import { paths, screenHref, type ScreenName } from '@/config/paths';

import { SCREEN_ICONS, isCurrent } from './nav';

type Group = { label: string; items: ScreenName[] };

type SidebarNavProps = {
  /** The landmark's name: "Main" for the sidebar, "Mobile" for the drawer. */
  label: string;
  groups: Group[];
  pathname: string;
  /** Icons only, the names kept for screen readers and as tooltips. */
  collapsed?: boolean;
  /** Called when a link is followed (the drawer closes). */
  onNavigate?: () => void;
};

/** The navigation groups as lists of links with an icon per screen. */
export function SidebarNav({ label, groups, pathname, collapsed = false, onNavigate }: SidebarNavProps) {
  const id = useId();
  return (
    <nav aria-label={label} className="flex-1 space-y-4 overflow-y-auto px-2 py-3">
      {groups.map((group, i) => (
        <div key={group.label}>
          <p
            id={`${id}-${i}`}
            className={
              collapsed
                ? 'sr-only'
                : 'px-3 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase'
            }
          >
            {group.label}
          </p>
          {collapsed && i > 0 ? <hr aria-hidden="true" className="mx-2 mb-2 border-slate-200" /> : null}
          <ul aria-labelledby={`${id}-${i}`} className="space-y-0.5">
            {group.items.map((name) => {
              const Icon = SCREEN_ICONS[name];
              const current = isCurrent(name, pathname);
              const text = paths.screens[name].label;
              return (
                <li key={name}>
                  <Link
                    to={screenHref(name, pathname)}
                    aria-current={current ? 'page' : undefined}
                    title={collapsed ? text : undefined}
                    onClick={onNavigate}
                    className={`flex items-center gap-3 rounded-md py-2 text-sm text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 aria-[current=page]:bg-indigo-50 aria-[current=page]:font-semibold aria-[current=page]:text-indigo-700 ${
                      collapsed ? 'justify-center px-2' : 'px-3'
                    }`}
                  >
                    <Icon aria-hidden="true" className="size-4 shrink-0" />
                    <span className={collapsed ? 'sr-only' : 'truncate'}>{text}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}

/** The desktop sidebar (md and up): the navigation, collapsible to an icon rail. */
export function Sidebar({
  groups,
  pathname,
  collapsed,
  onToggle,
}: {
  groups: Group[];
  pathname: string;
  collapsed: boolean;
  onToggle: () => void;
}) {
  const id = useId();
  const Toggle = collapsed ? PanelLeftOpen : PanelLeftClose;
  return (
    <aside
      id={id}
      aria-label="Sidebar"
      data-collapsed={collapsed}
      className={`sticky top-14 hidden h-[calc(100dvh-3.5rem)] shrink-0 flex-col border-r border-slate-200 bg-white md:flex ${
        collapsed ? 'w-16' : 'w-60'
      }`}
    >
      <SidebarNav label="Main" groups={groups} pathname={pathname} collapsed={collapsed} />
      <div className="border-t border-slate-200 p-2">
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={!collapsed}
          aria-controls={id}
          aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
          title={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
          className={`flex w-full items-center gap-3 rounded-md py-2 text-sm text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 ${
            collapsed ? 'justify-center px-2' : 'px-3'
          }`}
        >
          <Toggle aria-hidden="true" className="size-4 shrink-0" />
          {collapsed ? null : <span>Collapse</span>}
        </button>
      </div>
    </aside>
  );
}
