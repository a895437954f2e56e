import * as Tabs from '@radix-ui/react-tabs';

const triggerClass =
  'rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 disabled:opacity-40 data-[state=active]:bg-white data-[state=active]:text-indigo-700 data-[state=active]:shadow-xs';

/** The row of tabs (Radix: arrow keys move between them); each `[value, label, disabled?]`. */
export function TabList({ label, tabs }: { label: string; tabs: readonly (readonly [string, string, boolean?])[] }) {
  return (
    <Tabs.List aria-label={label} className="mb-4 inline-flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1">
      {tabs.map(([value, text, disabled]) => (
        <Tabs.Trigger key={value} value={value} disabled={disabled} className={triggerClass}>
          {text}
        </Tabs.Trigger>
      ))}
    </Tabs.List>
  );
}
