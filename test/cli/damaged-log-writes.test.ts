// A store whose log does not read as weft's, through main() in-process (issue 19, item 5): every
// kind of damage, every command that writes refused (exit 2, one line naming the run, the file
// byte-identical), and the reads still served. The tests: damaged-log.ts; the real binary's run
// of them: damaged-log-writes-cli.test.ts.
import { weftInProcess } from './capture-io.ts';
import { damagedLogTests, KINDS } from './damaged-log.ts';
import { REPO_ROOT } from './run-weft.ts';

damagedLogTests((args) => weftInProcess(args, REPO_ROOT), KINDS);
