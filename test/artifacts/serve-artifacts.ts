// A server in this process for the artifact tests: its workspace trusted (its scripts run), and the
// artifact threshold set for its start only, since serveInProcess gives the server this process's
// environment.
import { join } from 'node:path';
import { setTrust } from '../../engine/service/workspace-trust.ts';
import { overrideEnv } from '../env-override.ts';
import { serveInProcess, type InProcessServer } from '../server/serve-in-process.ts';

/** Serves `files` in a trusted workspace, outputs over `threshold` bytes kept by reference. */
export async function serveArtifacts(prefix: string, files: Record<string, unknown>, threshold: number): Promise<InProcessServer> {
  const restore = overrideEnv({ WEFT_ARTIFACT_THRESHOLD: String(threshold) });
  let server: InProcessServer;
  try {
    server = await serveInProcess(prefix, files);
  } finally {
    restore();
  }
  setTrust(server.workspace, true, { ...process.env, WEFT_CONFIG_DIR: join(server.root, 'config') });
  return server;
}
