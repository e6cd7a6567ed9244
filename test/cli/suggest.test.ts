// A mistyped command, option or action gets "did you mean …?" (in the chosen language), an option of another
// command says which command has it, and rclone's words point at their siglata counterparts. Usage errors exit 2.
import t from 'tap';
import { closest, editDistance } from '../../cli/suggest.ts';
import { runCli } from './run-cli.ts';

const env = { SIGLATA_LANG: undefined, SIGLATA_SERVER: undefined, SIGLATA_TOKEN: undefined };

t.test('the nearest word', async (t) => {
  t.equal(editDistance('dyr-run', 'dry-run'), 1, 'two letters swapped count once');
  t.equal(closest('lss', ['ls', 'rm', 'cp']), 'ls');
  t.equal(closest('sycn', ['sync', 'search']), 'sync');
  t.equal(closest('dowload', ['download', 'upload']), 'download');
  t.equal(closest('down', ['download', 'upload']), 'download', 'the one word it begins');
  t.equal(closest('ls', ['rm', 'cp']), null, 'two-letter words are not guessed wildly');
  t.equal(closest('frobnicate', ['ls', 'cp', 'sync']), null);
});

t.test('the command line', async (t) => {
  const [cmd, flag, short, other, action, rclone, none, pt] = await Promise.all([
    runCli(['lss'], { env }),
    runCli(['cp', 'a', 'remote:b', '--dryrun'], { env }),
    runCli(['ls', '--prefx', 'x'], { env }),
    runCli(['cp', 'a', 'remote:b', '--delete'], { env }),
    runCli(['keys', 'lst'], { env }),
    runCli(['copy', 'a', 'remote:b'], { env }),
    runCli(['frobnicate'], { env }),
    runCli(['sycn', '--lang', 'pt-BR'], { env }),
  ]);
  t.equal(cmd.code, 2);
  t.match(cmd.stderr, /^error: usage: unknown command "lss"; did you mean "ls"\?/);
  t.equal(flag.code, 2);
  t.match(flag.stderr, /^error: usage: unknown option --dryrun; did you mean --dry-run\?; run siglata cp --help/);
  t.match(short.stderr, /unknown option --prefx; did you mean --prefix\?/);
  t.match(other.stderr, /unknown option --delete; --delete is an option of: sync/);
  t.equal(action.code, 2);
  t.match(action.stderr, /keys: unknown action "lst"; did you mean "keys list"\? \(create, list, revoke\)/);
  t.match(rclone.stderr, /unknown command "copy"; did you mean "cp"\?/, "rclone's word points at siglata's");
  t.match(none.stderr, /unknown command "frobnicate"; run siglata --help/);
  t.notMatch(none.stderr, /did you mean/, 'no guess when nothing is near');
  t.match(pt.stderr, /^erro: usage: comando desconhecido "sycn"; você quis dizer "sync"\?/m);
  for (const r of [cmd, flag, short, other, action, rclone, none, pt]) t.notMatch(r.stderr, /\n\s+at /, 'no stack trace');
});
