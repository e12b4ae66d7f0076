// Types of code-cache.js for the TypeScript that uses it (its tests); bin/ stays plain
// JavaScript so that `weft` starts without compiling anything.
export type CodeCacheStatus = 'used' | 'none' | 'rejected' | 'off';
export function cacheFileOf(dir: string, source: string | Uint8Array, key: string): string;
export function loadWithCodeCache(file: string, options: { cacheDir: string | undefined; key: string }): { exports: Record<string, unknown>; status: CodeCacheStatus; save(): void };
