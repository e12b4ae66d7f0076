// `weft trust [DIR] [--revoke] [--list]`: allow (or stop allowing) workflows of a workspace to run
// their scripts and commands.
import { resolve } from 'node:path';
import { withUserErrors } from '../cli-errors.ts';
import type { Command } from '../command.ts';
import { EXIT_OK } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { UsageError } from '../usage-error.ts';
import { configDir, setTrust, trustedWorkspaces } from '../../service/workspace-trust.ts';

export const trustCommand: Command = {
  name: 'trust',
  summary: 'allow the workflows of a workspace to run their scripts and commands',
  usage: 'weft trust [DIR] [--revoke] [--list] [--json]',
  help: `Workflows with script or command steps run code from their workspace (the folder of the
workflow file). weft run refuses them until the workspace is trusted. DIR defaults to the
current folder; trust is remembered per absolute path in the user's config folder
($WEFT_CONFIG_DIR, else $XDG_CONFIG_HOME/weft, else ~/.config/weft).

  --revoke   stop trusting DIR
  --list     print the trusted workspaces`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { revoke: { type: 'boolean' }, list: { type: 'boolean' }, json: { type: 'boolean' } });
    if (positionals.length > 1) throw new UsageError('give at most one folder');
    return withUserErrors('trust', io, async () => {
      if (values.list === true) {
        const list = trustedWorkspaces();
        io.stdout.write(values.json === true ? `${JSON.stringify({ workspaces: list })}\n` : list.length === 0 ? 'no trusted workspaces\n' : `${list.join('\n')}\n`);
        return EXIT_OK;
      }
      const dir = resolve(io.cwd, positionals[0] ?? '.');
      setTrust(dir, values.revoke !== true);
      io.stdout.write(values.json === true ? `${JSON.stringify({ workspace: dir, trusted: values.revoke !== true })}\n` : `${values.revoke === true ? 'no longer trusted' : 'trusted'}: ${dir} (recorded in ${configDir()})\n`);
      return EXIT_OK;
    });
  },
};
