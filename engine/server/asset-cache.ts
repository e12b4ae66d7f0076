// The app's built assets are named by their content (`assets/index-DMu4EtJZ.js`: Vite's
// `[name]-[hash]`), so a name never holds other bytes: the browser may keep them for good and
// load them again without asking. The page itself, like anything else, keeps the server's
// `no-store` (request-guards.ts): fetched on each load, it names the assets of the build being
// served, so a new build is picked up at once.
import type { FastifyInstance } from 'fastify';

/** A path under /assets/ whose file name ends in Vite's 8-character content hash. */
const HASHED_ASSET = /^\/assets\/[^/?#]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+(?:\?.*)?$/;

export const IMMUTABLE = 'public, max-age=31536000, immutable';

export function isHashedAsset(url: string): boolean {
  return HASHED_ASSET.test(url);
}

/** Marks the answers for hashed assets (200 and 304) as cacheable for a year without revalidation. */
export function cacheHashedAssets(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if ((reply.statusCode === 200 || reply.statusCode === 304) && isHashedAsset(request.url)) reply.header('cache-control', IMMUTABLE);
    return payload;
  });
}
