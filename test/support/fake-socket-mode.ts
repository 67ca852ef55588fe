import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** A message the app sent back over the socket (acks carry the envelope_id). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SocketMessage = Record<string, any>;

export interface FakeSocketMode {
  /** ws:// URL to hand out from apps.connections.open. */
  url: string;
  received: SocketMessage[];
  /** Resolves when the app's Socket Mode client is connected (after our "hello"). */
  connected(): Promise<void>;
  /** Send an envelope (e.g. a slash command) to the connected app. */
  send(envelope: SocketMessage): void;
  close(): Promise<void>;
}

/**
 * A local stand-in for Slack's Socket Mode WebSocket endpoint: greets with `hello` like Slack does,
 * sends envelopes the test builds, records what the app sends back (acks).
 */
export async function startFakeSocketMode(): Promise<FakeSocketMode> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const received: SocketMessage[] = [];
  let socket: WebSocket | undefined;
  let onConnect: (() => void) | undefined;
  const connectedP = new Promise<void>((resolve) => (onConnect = resolve));
  wss.on('connection', (ws) => {
    socket = ws;
    ws.on('message', (data) => {
      // A Buffer: the socket's binaryType is ws's default, 'nodebuffer'.
      const text = (data as Buffer).toString('utf8');
      try {
        received.push(JSON.parse(text));
      } catch {
        received.push({ raw: text });
      }
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: 1,
        debug_info: { host: 'fake' },
        connection_info: { app_id: 'A0TEST' },
      }),
    );
    onConnect?.();
  });
  const port = (wss.address() as AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}/link`,
    received,
    connected: () => connectedP,
    send(envelope) {
      if (!socket) throw new Error('fake Socket Mode: no app connected');
      socket.send(JSON.stringify(envelope));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  };
}
