import * as RadixDialog from '@radix-ui/react-dialog';
import { useEffect, useRef, useState, type ReactNode } from 'react';

type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
  /** Wider dialogs for forms with two columns. */
  size?: 'md' | 'lg';
};

/**
 * A modal dialog (Radix): focus moves into it on open, is trapped while open,
 * Escape closes it and focus returns to the control that opened it.
 */
export function Dialog({ open, onOpenChange, title, description, children, size = 'md' }: DialogProps) {
  // Screens mount a dialog when it opens and drop it when it closes, so Radix never sees a
  // trigger: remember what had focus (read during render, before Radix moves focus) and give it back.
  const [opener] = useState(() => document.activeElement);
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      // StrictMode re-mounts at once; only a dialog that stays gone hands focus back.
      queueMicrotask(() => {
        if (!mounted.current && opener instanceof HTMLElement && opener.isConnected) opener.focus();
      });
    };
  }, [opener]);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <RadixDialog.Content
          // Without a description Radix expects an explicit "none".
          {...(description ? {} : { 'aria-describedby': undefined })}
          // Escape in an open list (a combobox inside the dialog) closes that list, not the dialog.
          onEscapeKeyDown={(e) => {
            if (e.target instanceof HTMLElement && e.target.getAttribute('aria-expanded') === 'true') e.preventDefault();
          }}
          className={`fixed top-1/2 left-1/2 z-50 max-h-[92vh] w-[calc(100vw-1.5rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-5 shadow-xl focus:outline-none ${
            size === 'lg' ? 'max-w-2xl' : 'max-w-lg'
          }`}
        >
          <div className="mb-4 pr-8">
            <RadixDialog.Title className="text-lg font-semibold text-slate-900">{title}</RadixDialog.Title>
            {description ? (
              <RadixDialog.Description className="mt-1 text-sm text-slate-500">{description}</RadixDialog.Description>
            ) : null}
          </div>
          {children}
          {/* Last in the tab order, so opening the dialog focuses its first field. */}
          <RadixDialog.Close
            aria-label="Close"
            className="absolute top-4 right-4 rounded p-1 text-xl leading-none text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            ×
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
