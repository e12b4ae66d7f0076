// Forward parity with the default store (./.weft/weft.db in the workspace): each command prints the same bytes and exit code
// alone and while `weft serve` owns the store (the scenario and its checks: forward-parity.ts).
import { parityTest } from './forward-parity.ts';

parityTest('default');
