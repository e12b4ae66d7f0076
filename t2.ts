import { sourceSqlSites } from './test/fixtures/pg/sql-site.ts';
const s = sourceSqlSites(); console.log(s.length); console.log(s.join('\n'));
