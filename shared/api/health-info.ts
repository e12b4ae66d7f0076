// `GET /api/health`: which engine answers, for which workspace and store.
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
});
export type HealthInfo = z.infer<typeof HealthInfo>;
