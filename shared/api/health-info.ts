// `GET /api/health`: which engine answers, for which workspace and store, and for whom.
import { z } from 'zod';

/**
 * @example
 * HealthInfo.parse({ version: '0.1.0', workspace: '/home/ana/flows', store: '/home/ana/flows/.weft/weft.db' });
 */
export const HealthInfo = z.strictObject({
  /** Weft's version, as `weft --version` prints it. */
  version: z.string().min(1),
  /** The workspace folder, absolute. */
  workspace: z.string().min(1),
  /** The store file, absolute. */
  store: z.string().min(1),
  /**
   * Who acts when a command names nobody: $WEFT_USER, else $USER, else the OS user of the server
   * (the `by` the CLI records). The app offers it as the default `by`. Absent from older servers.
   */
  user: z.string().min(1).optional(),
});
export type HealthInfo = z.infer<typeof HealthInfo>;
