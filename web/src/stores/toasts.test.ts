import { describe, expect, it } from 'vitest';

import { resetAllStores } from './create-store';
import { TOAST_DEFAULT_DURATION_MS, toast, useToastStore } from './toasts';

describe('toast store', () => {
  it('keeps at most one toast, the newest', () => {
    toast({ title: 'First' });
    toast({ title: 'Second', variant: 'destructive' });
    const { toasts } = useToastStore.getState();
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({ title: 'Second', variant: 'destructive' });
  });

  it('defaults to 5000 ms', () => {
    toast({ title: 'Hello' });
    expect(TOAST_DEFAULT_DURATION_MS).toBe(5000);
    expect(useToastStore.getState().toasts[0]?.durationMs).toBe(5000);
  });

  it('dismisses by id and resets between tests', () => {
    const id = toast({ title: 'Bye' });
    useToastStore.getState().dismissToast(id);
    expect(useToastStore.getState().toasts).toEqual([]);
    toast({ title: 'Left over' });
    resetAllStores();
    expect(useToastStore.getState().toasts).toEqual([]);
    expect(useToastStore.getState().nextId).toBe(1);
  });
});
