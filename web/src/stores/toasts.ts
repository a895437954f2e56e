import { createStore } from './create-store';

/** At most this many toasts are shown at once (seed §7.1). */
export const TOAST_LIMIT = 1;
export const TOAST_DEFAULT_DURATION_MS = 5000;

export type ToastVariant = 'default' | 'success' | 'destructive';

export type Toast = {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  durationMs: number;
};

export type ToastInput = {
  title: string;
  description?: string;
  variant?: ToastVariant;
  durationMs?: number;
};

type ToastState = {
  toasts: Toast[];
  nextId: number;
  addToast: (toast: ToastInput) => number;
  dismissToast: (id: number) => void;
};

export const useToastStore = createStore<ToastState>((set, get) => ({
  toasts: [],
  nextId: 1,
  addToast: ({ title, description, variant = 'default', durationMs = TOAST_DEFAULT_DURATION_MS }) => {
    const id = get().nextId;
    const toast: Toast = { id, title, description, variant, durationMs };
    set((state) => ({
      nextId: state.nextId + 1,
      toasts: [toast, ...state.toasts].slice(0, TOAST_LIMIT),
    }));
    return id;
  },
  dismissToast: (id) => set((state) => ({ toasts: state.toasts.filter((t) => t.id !== id) })),
}));

/** Shows a toast from outside React (mutation callbacks and the like). */
export const toast = (input: ToastInput): number => useToastStore.getState().addToast(input);
