import * as RadixDialog from '@radix-ui/react-dialog';
import { Command } from 'cmdk';
import {
  Briefcase,
  Building,
  FileText,
  ListOrdered,
  LoaderCircle,
  Mail,
  Search,
  Server,
  User,
  type LucideIcon,
} from 'lucide-react';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

import { SCREEN_ICONS, visibleScreens } from '@/components/layouts/nav';
import { appHref, paths, screenHref } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useDebouncedValue } from '@/lib/use-debounced-value';

import { SEARCH_MAX_CHARS, SEARCH_MIN_CHARS, useSearch, type SearchGroup } from '../api/search';

/** Keystrokes are sent to the server once the query has rested this long. */
export const SEARCH_DEBOUNCE_MS = 150;

const TYPE_ICONS: Record<string, LucideIcon> = {
  company: Building,
  contact: User,
  deal: Briefcase,
  campaign: Mail,
  sequence: ListOrdered,
  invoice: FileText,
  job: Server,
};

const itemClass =
  'flex cursor-pointer items-center gap-3 rounded-md px-3 py-2 text-sm text-slate-800 data-[selected=true]:bg-indigo-50 data-[selected=true]:text-indigo-800';
const headingClass =
  '[&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:pt-3 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:tracking-wide [&_[cmdk-group-heading]]:text-slate-500 [&_[cmdk-group-heading]]:uppercase';

const groupTotal = (g: SearchGroup) => `${g.total.toLocaleString()}${g.totalCapped ? '+' : ''}`;

type CommandPaletteProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  adminSession: boolean;
  /** What had focus when the palette opened: it gets it back on close. */
  returnFocusTo: HTMLElement | null;
};

/**
 * The command palette (⌘K / Ctrl-K): "Go to" a screen, or search the workspace
 * (`GET /api/search`, from 2 characters, debounced). Enter or a click opens the result.
 */
export function CommandPalette({ open, onOpenChange, adminSession, returnFocusTo }: CommandPaletteProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <RadixDialog.Content
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (returnFocusTo?.isConnected) returnFocusTo.focus();
          }}
          className="fixed top-[12vh] left-1/2 z-50 w-[calc(100vw-1.5rem)] max-w-xl -translate-x-1/2 overflow-hidden rounded-xl bg-white shadow-2xl ring-1 ring-slate-200 focus:outline-none"
        >
          <RadixDialog.Title className="sr-only">Search and commands</RadixDialog.Title>
          {/* Mounted per opening: each opening starts with an empty query. */}
          {open ? <PaletteBody adminSession={adminSession} onClose={() => onOpenChange(false)} /> : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

function PaletteBody({ adminSession, onClose }: { adminSession: boolean; onClose: () => void }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [input, setInput] = useState('');
  const query = input.trim();
  const debounced = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  const searching = debounced.length >= SEARCH_MIN_CHARS;
  const results = useSearch(debounced);

  const go = (href: string) => {
    onClose();
    void navigate(href);
  };

  const needle = query.toLowerCase();
  const screens = visibleScreens(adminSession).filter((name) =>
    `go to ${paths.screens[name].label}`.toLowerCase().includes(needle),
  );
  const answer = searching ? results.data : undefined;
  // The answer shown belongs to the query typed (not a previous one kept while the next loads).
  const current = answer !== undefined && !results.isPlaceholderData;
  const groups = answer?.groups ?? [];

  return (
    <Command label="Search" shouldFilter={false} loop className="flex max-h-[70vh] flex-col">
      <div className="flex items-center gap-2 border-b border-slate-200 px-3">
        <Search aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
        <Command.Input
          value={input}
          onValueChange={setInput}
          maxLength={SEARCH_MAX_CHARS}
          placeholder="Search companies, contacts, deals… or go to a screen"
          className="h-12 w-full border-0 bg-transparent text-sm text-slate-900 placeholder:text-slate-400 focus:ring-0 focus:outline-none"
        />
        {searching && results.isFetching ? (
          <LoaderCircle aria-label="Searching" className="size-4 shrink-0 animate-spin text-slate-400" />
        ) : null}
      </div>
      <Command.List className={`overflow-y-auto p-2 ${headingClass}`}>
        {searching && results.isError ? (
          <p role="alert" className="mx-1 my-2 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
            Search failed: {errorMessage(results.error)}
          </p>
        ) : null}
        {searching && results.isPending ? <p className="px-3 py-2 text-sm text-slate-500">Searching…</p> : null}
        {searching && current && !results.isError && groups.length === 0 ? (
          <p role="status" className="px-3 py-2 text-sm text-slate-600">
            No results for “{debounced}”
          </p>
        ) : null}
        {!results.isError
          ? groups.map((group) => (
              <Command.Group key={group.type} heading={`${group.label} · ${groupTotal(group)}`}>
                {group.results.map((r) => {
                  const Icon = TYPE_ICONS[r.type] ?? Search;
                  return (
                    <Command.Item
                      key={`${r.type}:${r.id}`}
                      value={`${r.type}:${r.id}`}
                      onSelect={() => go(appHref(r.href, pathname))}
                      className={itemClass}
                    >
                      <Icon aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
                      <span className="min-w-0 flex-1 truncate">
                        {r.title}
                        {r.subtitle ? <span className="ml-2 text-xs text-slate-500">{r.subtitle}</span> : null}
                      </span>
                    </Command.Item>
                  );
                })}
              </Command.Group>
            ))
          : null}
        {screens.length > 0 ? (
          <Command.Group heading="Go to">
            {screens.map((name) => {
              const Icon = SCREEN_ICONS[name];
              return (
                <Command.Item
                  key={name}
                  value={`screen:${name}`}
                  onSelect={() => go(screenHref(name, pathname))}
                  className={itemClass}
                >
                  <Icon aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
                  Go to {paths.screens[name].label}
                </Command.Item>
              );
            })}
          </Command.Group>
        ) : null}
        {!searching && screens.length === 0 ? (
          <p className="px-3 py-2 text-sm text-slate-500">Type at least {SEARCH_MIN_CHARS} characters to search.</p>
        ) : null}
      </Command.List>
      <p className="border-t border-slate-200 px-3 py-2 text-xs text-slate-500">
        <kbd className="font-sans">↑</kbd> <kbd className="font-sans">↓</kbd> to move · <kbd className="font-sans">Enter</kbd> to open ·{' '}
        <kbd className="font-sans">Esc</kbd> to close
      </p>
    </Command>
  );
}
