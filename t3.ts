import { readFileSync } from 'node:fs';
import { sourceSqlSites } from './test/fixtures/pg/sql-site.ts';
const recs = readFileSync(process.argv[2]!, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const hit = new Set(recs.map((r: any) => r.site));
const src = sourceSqlSites();
console.log('sites', src.length, 'hit', src.filter((s) => hit.has(s)).length);
console.log('unhit:', src.filter((s) => !hit.has(s)).join(' '));
console.log('recorded not in source:', [...hit].filter((s) => !src.includes(s)).join(' '));
console.log('distinct texts', new Set(recs.map((r: any) => r.sql)).size);
