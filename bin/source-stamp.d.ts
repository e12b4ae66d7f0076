// Types of source-stamp.js for the TypeScript that uses it (the bench); bin/ stays plain
// JavaScript so that `weft` starts without compiling anything.
export function sourceStamp(root: string): { files: number; newestMs: number };
export function freshBundlePath(root: string): string | undefined;
