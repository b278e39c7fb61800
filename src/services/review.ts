import type { ErrorCode } from '#contract/envelope';
import type { Page } from '#contract/paging';
import type {
  AuthorFile,
  PresenceEvent,
  ReviewCounts,
  ReviewDecision,
  ReviewDecisionResult,
  ReviewItem,
  ReviewItemRef,
  ReviewKind,
  ReviewReasonEntry,
  Sanction,
  UserNote,
} from '#contract/review';
import { expireSession, getToken } from '@/utils/session';
import { api } from './api';

export function listReview(query: { current?: number; pageSize?: number; kind?: ReviewKind | '' }): Promise<Page<ReviewItem>> {
  const params = new URLSearchParams();
  if (query.current) params.set('current', String(query.current));
  if (query.pageSize) params.set('pageSize', String(query.pageSize));
  if (query.kind) params.set('kind', query.kind);
  return api<Page<ReviewItem>>(`/api/review?${params}`);
}

// The menu's badge: a failure leaves it out quietly instead of interrupting the page with a message.
export const reviewCounts = () => api<ReviewCounts>('/api/review/counts', { skipErrorHandler: true });

export function decide(items: ReviewItemRef[], decision: ReviewDecision, reason?: string): Promise<ReviewDecisionResult> {
  return api<ReviewDecisionResult>('/api/review/decisions', { method: 'POST', data: { items, decision, reason } });
}

export const listReasons = () => api<ReviewReasonEntry[]>('/api/review/reasons');
export const addReason = (text: string) => api<ReviewReasonEntry>('/api/review/reasons', { method: 'POST', data: { text } });
export const removeReason = (id: string) => api<null>(`/api/review/reasons/${id}`, { method: 'DELETE' });

/** Tells the other admins that this one looks at an item (or no longer); failures are of no matter. */
export function announcePresence(item: ReviewItemRef, open: boolean): Promise<unknown> {
  return api<null>('/api/review/presence', { method: 'POST', data: { ...item, open }, skipErrorHandler: true }).catch(() => null);
}

export const authorFile = (userId: string) => api<AuthorFile>(`/api/user/${userId}/file`);
export const listSanctions = (userId: string) => api<Sanction[]>(`/api/user/${userId}/sanctions`);
export const addSanction = (userId: string, data: { kind: 'mute' | 'suspend'; days: number | null; reason: string }) =>
  api<Sanction>(`/api/user/${userId}/sanctions`, { method: 'POST', data });
export const liftSanction = (userId: string, sanctionId: string) =>
  api<Sanction>(`/api/user/${userId}/sanctions/${sanctionId}`, { method: 'DELETE' });
export const addNote = (userId: string, body: string) => api<UserNote>(`/api/user/${userId}/notes`, { method: 'POST', data: { body } });
export const removeNote = (userId: string, noteId: string) => api<null>(`/api/user/${userId}/notes/${noteId}`, { method: 'DELETE' });

export type ReviewEvent =
  | { type: 'counts'; data: ReviewCounts }
  | { type: 'change'; data: { what: string[] } }
  | { type: 'presence'; data: PresenceEvent };

/** Splits a server-sent event stream's text into its events (the part after the last blank line is kept). */
export function parseEvents(buffer: string): { events: ReviewEvent[]; rest: string } {
  const blocks = buffer.split('\n\n');
  const rest = blocks.pop() ?? '';
  const events: ReviewEvent[] = [];
  for (const block of blocks) {
    let type = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) type = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (data && (type === 'counts' || type === 'change' || type === 'presence'))
      events.push({ type, data: JSON.parse(data) } as ReviewEvent);
  }
  return { events, rest };
}

type Listener = (event: ReviewEvent) => void;
const listeners = new Set<Listener>();
let stopStream: (() => void) | null = null;
let lastCounts: ReviewCounts | null = null;

/**
 * One stream of GET /api/review/events per tab, shared by the menu badge and the queue; made
 * again 2 s after it breaks. fetch, not EventSource: the call carries the token in its header.
 */
function startStream() {
  let stopped = false;
  let controller = new AbortController();
  const run = async () => {
    while (!stopped) {
      try {
        controller = new AbortController();
        const token = getToken();
        const response = await fetch('/api/review/events', {
          headers: token ? { authorization: `Bearer ${token}` } : {},
          signal: controller.signal,
        });
        if (response.status === 401) {
          // The session ended (here the server ends an open stream once it has): said as any call says it.
          const refusal = (await response.json().catch(() => null)) as { errorCode?: ErrorCode } | null;
          stopped = true;
          expireSession(refusal?.errorCode);
          return;
        }
        if (!response.ok || !response.body) throw new Error(String(response.status));
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const parsed = parseEvents(buffer + decoder.decode(value, { stream: true }));
          buffer = parsed.rest;
          for (const event of parsed.events) {
            if (event.type === 'counts') lastCounts = event.data;
            for (const listener of listeners) listener(event);
          }
        }
      } catch {
        // Broken or refused: tried again below.
      }
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  };
  void run();
  return () => {
    stopped = true;
    controller.abort();
  };
}

/** Listens to the queue's live events; answers how to stop. The last counts are told at once. */
export function subscribeReview(listener: Listener): () => void {
  listeners.add(listener);
  if (lastCounts) listener({ type: 'counts', data: lastCounts });
  if (!stopStream && typeof fetch === 'function' && typeof TextDecoder === 'function') stopStream = startStream();
  return () => {
    listeners.delete(listener);
    if (!listeners.size && stopStream) {
      stopStream();
      stopStream = null;
      lastCounts = null;
    }
  };
}
