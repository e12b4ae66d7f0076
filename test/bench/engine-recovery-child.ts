// Child process of the engine benchmark: fills a store with COUNT runs parked on a long timer,
// then kills itself with SIGKILL, leaving them unfinished as a crash would.
// Usage: node --import tsx test/bench/engine-recovery-child.ts DIR COUNT (the store is DIR/weft.db)
import { engineFixture } from './engine-fixture.ts';
import { parkedWorkflow } from './engine-workflows.ts';

const [dir, countText] = process.argv.slice(2);
const count = Number(countText);
if (dir === undefined || !Number.isInteger(count) || count < 1) {
  process.stderr.write('usage: engine-recovery-child.ts DIR COUNT\n');
  process.exit(2);
}
const f = engineFixture({}, dir);
const workflow = parkedWorkflow(3_600_000);
const ids = Array.from({ length: count }, () => f.start(workflow));
const states = await Promise.all(ids.map((id) => f.engine.settled(id)));
const notWaiting = states.filter((s) => s !== 'waiting').length;
if (notWaiting > 0) {
  process.stderr.write(`${notWaiting} of ${count} runs are not waiting\n`);
  process.exit(1);
}
process.kill(process.pid, 'SIGKILL');
