import WebSocket from 'ws';

/** A WebSocket client that keeps every message and waits for the one a test expects. */
export interface LiveClient {
  messages: Record<string, unknown>[];
  send: (message: unknown) => void;
  /** The first message (already received or coming) that matches, within `timeoutMs`. */
  next: (match: (message: Record<string, unknown>) => boolean, timeoutMs?: number) => Promise<Record<string, unknown>>;
  close: () => Promise<void>;
}

export const openSocket = (url: string): Promise<LiveClient> =>
  new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const messages: Record<string, unknown>[] = [];
    const waiting = new Set<() => void>();
    socket.on('message', (data) => {
      messages.push(JSON.parse(String(data)) as Record<string, unknown>);
      for (const wake of waiting) wake();
    });
    socket.once('unexpected-response', (_request, response) => reject(new Error(`refused with ${response.statusCode}`)));
    socket.once('error', reject);
    socket.once('open', () =>
      resolve({
        messages,
        send: (message) => socket.send(JSON.stringify(message)),
        next: (match, timeoutMs = 15_000) =>
          new Promise((found, fail) => {
            const check = () => {
              const hit = messages.find(match);
              if (!hit) return false;
              waiting.delete(check);
              clearTimeout(timer);
              found(hit);
              return true;
            };
            const timer = setTimeout(() => {
              waiting.delete(check);
              fail(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages).slice(0, 2000)}`));
            }, timeoutMs);
            if (!check()) waiting.add(check);
          }),
        close: () =>
          new Promise((closed) => {
            if (socket.readyState === WebSocket.CLOSED) return closed();
            socket.once('close', () => closed());
            socket.close();
          }),
      }),
    );
  });

/** The HTTP status a refused WebSocket handshake answered. */
export const refusal = (url: string): Promise<number | 'opened'> =>
  new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('open', () => {
      resolve('opened');
      socket.close();
    });
    socket.once('error', (error) => reject(error));
  });
