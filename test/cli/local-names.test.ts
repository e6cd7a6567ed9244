// Names the local file system would merge or cannot hold side by side, decided before anything is written: on a
// folding file system (macOS, Windows) `README` and `readme`, or NFC and NFD spellings, are one name; anywhere, a file
// cannot also be the folder of other files. And the probe of a real folder here (Linux: it folds nothing).
import t from 'tap';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXACT, fileFolderClashes, foldClashes, probeFolding } from '../../cli/transfer/local-names.ts';

const folding = { caseInsensitive: true, normalizationInsensitive: true };

t.test('case twins and spellings on a folding file system', async (t) => {
  const rels = ['case/README', 'case/readme', 'caf\u00e9.txt', 'cafe\u0301.txt', 'A/b.txt', 'a/c.txt', 'plain.txt'];
  t.same(
    [...foldClashes(rels, folding)],
    [
      ['case/readme', 'case/README'],
      ['cafe\u0301.txt', 'caf\u00e9.txt'],
    ],
    'each later name names the earlier one it would overwrite',
  );
  t.same([...foldClashes(rels, EXACT)], [], 'a case-sensitive file system keeps them all');
});

t.test('a file that is also a folder', async (t) => {
  t.same([...fileFolderClashes(['x', 'x/y', 'x/z/w', 'xy'])], [['x', 'x/y']]);
  t.same([...fileFolderClashes(['X', 'x/y'], folding)], [['X', 'x/y']], 'after folding, too');
  t.same([...fileFolderClashes(['X', 'x/y'], EXACT)], []);
});

t.test('the probe of a folder here', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'siglata-fold-'));
  t.same(await probeFolding(dir, { samples: [], write: false }), EXACT, 'without writing, nothing to go on: folds nothing');
  t.same(await probeFolding(dir, { samples: [], write: true }), EXACT, 'Linux file systems fold nothing');
  t.same(await readdir(dir), [], 'and the probe file is gone');
  await writeFile(join(dir, 'Sample.txt'), 'x');
  t.same(await probeFolding(dir, { samples: [{ abs: join(dir, 'Sample.txt'), rel: 'Sample.txt' }], write: false }), EXACT, 'a file there answers');
});
