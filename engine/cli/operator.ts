// Who acts, for operator commands: --by NAME, else the one default of every front end
// (engine/service/who-acts.ts: $WEFT_USER, else $USER, else the OS user). It is filled in here,
// on the terminal's side, so a command handed to a running `weft serve` records the terminal's
// user, not the server's. An empty --by is the user's to fix, and is refused.
import { defaultActor } from '../service/who-acts.ts';

export function actor(by: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return by ?? defaultActor(env);
}
