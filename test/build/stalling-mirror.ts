// A stand-in ELECTRON_MIRROR on 127.0.0.1 that accepts every request and never answers: a
// download that hangs after its request went out. close() ends the held requests too.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StallingMirror {
  url: string;
  /** The paths asked for so far, in order. */
  requests(): string[];
  close(): Promise<void>;
}

export async function stallingMirror(): Promise<StallingMirror> {
  const asked: string[] = [];
  const server: Server = createServer((req) => {
    asked.push(req.url ?? ''); // and never answer
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests: () => [...asked],
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
