// A store whose log does not read as weft's, through the real binary (issue 19, item 5): every
// command that writes exits 2 with one line on stderr naming the damaged run, and leaves the file
// byte-identical; commands that read still read the other runs. One kind of damage here, for the
// process's exit codes and bytes; every kind runs in-process in damaged-log-writes.test.ts (the
// tests themselves: damaged-log.ts).
import { damagedLogTests, KINDS } from './damaged-log.ts';
import { REPO_ROOT, runWeft } from './run-weft.ts';

damagedLogTests((args) => runWeft(args, REPO_ROOT), KINDS.slice(0, 1));
