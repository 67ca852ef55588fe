import type { EventProjection, KubeObject } from '../snapshot.js';

/**
 * Rebuild a core/v1 Event from its projection, for the dump writer: `projectEvent(eventFromProjection(e),
 * e.origin)` deep-equals `e`. projectEvent falls back from lastTimestamp to firstTimestamp, so a
 * projection with only a first timestamp stores it as metadata.creationTimestamp (which feeds
 * firstTimestamp only).
 */
export function eventFromProjection(e: EventProjection): KubeObject {
  // addToSnapshot needs a string name; '' reads back as "no name".
  const metadata: KubeObject['metadata'] = { name: e.name ?? '' };
  if (e.namespace !== undefined) metadata.namespace = e.namespace;
  const ev: KubeObject = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata,
    involvedObject: { ...e.involvedObject },
    count: e.count,
  };
  if (e.type !== undefined) ev.type = e.type;
  if (e.reason !== undefined) ev.reason = e.reason;
  if (e.message !== undefined) ev.message = e.message;
  if (e.firstTimestamp !== undefined) {
    if (e.lastTimestamp !== undefined) ev.firstTimestamp = e.firstTimestamp;
    else metadata.creationTimestamp = e.firstTimestamp;
  }
  if (e.lastTimestamp !== undefined) ev.lastTimestamp = e.lastTimestamp;
  if (e.source !== undefined) ev.source = { component: e.source };
  return ev;
}
