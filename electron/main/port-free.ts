// Whether a port of 127.0.0.1 can be listened on now. A restarted engine takes its old port when
// it can, so pages open on it reconnect by themselves; when another program took it meanwhile,
// the engine gets a new one and the window is told.
import { createServer } from 'node:net';

export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host: '127.0.0.1', port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
