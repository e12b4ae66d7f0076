// Forward parity with a store named by a relative --db from another folder: each command prints the same bytes and exit code
// alone and while `weft serve` owns the store (the scenario and its checks: forward-parity.ts).
import { parityTest } from './forward-parity.ts';

parityTest('flag');
