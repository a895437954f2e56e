import { create, type StateCreator, type StoreApi, type UseBoundStore } from 'zustand';

const resetters = new Set<() => void>();

/**
 * `zustand.create` that remembers the store's initial state, so tests can put
 * every store back with `resetAllStores()` (called after each test).
 */
export function createStore<T>(initializer: StateCreator<T>): UseBoundStore<StoreApi<T>> {
  const store = create<T>()(initializer);
  const initialState = store.getInitialState();
  resetters.add(() => store.setState(initialState, true));
  return store;
}

export function resetAllStores(): void {
  for (const reset of resetters) reset();
}
