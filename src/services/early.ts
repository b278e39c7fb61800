/*
 * Calls a page will make first, started by app.tsx's `render` as soon as the app's own code runs,
 * while the layout's and the page's chunks still load and before the session is known. Without
 * this the user list asks for its rows only after whoami has answered, the layout has rendered and
 * the page's table has mounted: a second round trip behind a second of rendering.
 *
 * Each kind of call has one slot, taken by the first caller of that kind: that caller gets the
 * early call when it asks for exactly the same thing, and starts its own otherwise. Either way the
 * slot is then empty, so no later call (a reload of the table, a second visit to the page) is ever
 * answered from it, and any navigation empties every slot. The calls are the services' own, so a
 * failure has been reported by the request layer (requestErrorConfig.ts) exactly as it would be for
 * the page, once, and reaches the page as the same rejection.
 */

type Slot = 'session' | 'table';

const slots = new Map<Slot, { key: string; answer: Promise<unknown> }>();

export function startEarly<T>(slot: Slot, key: string, call: () => Promise<T>): void {
  const answer = call();
  // Nobody may ever take it (the admin navigates first): that is not an unhandled failure.
  answer.catch(() => undefined);
  slots.set(slot, { key, answer });
}

/** The early call of `slot` when it asked for `key`; the slot is emptied in any case. */
export function takeEarly<T>(slot: Slot, key: string): Promise<T> | undefined {
  const started = slots.get(slot);
  slots.delete(slot);
  return started?.key === key ? (started.answer as Promise<T>) : undefined;
}

export function dropEarly(): void {
  slots.clear();
}
