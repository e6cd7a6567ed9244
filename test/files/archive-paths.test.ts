// How an archive entry's name becomes a catalogue path, or is refused and why (services/archive/paths.ts), and how
// an upload's first bytes name its format (services/archive/open.ts).
import t from 'tap';
import { entryPath, intoFolder } from '../../runtime-api/services/archive/paths.ts';
import { sniff } from '../../runtime-api/services/archive/open.ts';
import { makeTar, makeZip } from './archive-helpers.ts';

const path = (raw: string, into = '', isFolder = false, max = 255) => {
  const r = entryPath(raw, isFolder, into, max);
  return r === null ? null : 'path' in r ? r.path : r.code;
};

t.test('names that become paths', async (t) => {
  t.equal(path('a.txt'), 'a.txt');
  t.equal(path('./a/b.txt'), 'a/b.txt', 'a leading ./ is dropped');
  t.equal(path('././a.txt'), 'a.txt', 'every leading ./');
  t.equal(path('docs/', '', true), 'docs', "a folder's trailing / is dropped");
  t.equal(path('./', '', true), null, "the archive's root folder names nothing");
  t.equal(path('cafe\u0301.txt'), 'caf\u00e9.txt', 'NFC');
  t.equal(path('a.txt', 'projects/site'), 'projects/site/a.txt', 'under `into`');
  t.equal(path('A.TXT'), 'A.TXT', 'case is kept');
});

t.test('names that are refused, and the code that says why', async (t) => {
  const cases: [string, string][] = [
    ['../a.txt', 'path_climbs_out'],
    ['a/../../b', 'path_climbs_out'],
    ['a/..', 'path_climbs_out'],
    ['/etc/passwd', 'absolute_path'],
    ['//server/share', 'absolute_path'],
    ['C:/x.txt', 'absolute_path'],
    ['c:x.txt', 'absolute_path'],
    ['a\\b.txt', 'invalid_path'],
    ['..\\..\\x', 'invalid_path'],
    ['a\u0000b', 'invalid_path'],
    ['a\nb', 'invalid_path'],
    ['a\u0085b', 'invalid_path'],
    ['a//b', 'invalid_path'],
    ['a/./b', 'invalid_path'],
    ['.', 'invalid_path'],
    ['', 'invalid_path'],
    [' a.txt', 'invalid_path'],
    ['a /b', 'invalid_path'],
    ['a\u202eb', 'invalid_path'],
    ['\ud800.txt', 'invalid_path'],
    ['x'.repeat(256), 'path_too_long'],
    ['x'.repeat(5000), 'path_too_long'],
  ];
  for (const [raw, code] of cases) t.equal(path(raw), code, JSON.stringify(raw));
  t.equal(path('x'.repeat(250), 'folder'), 'path_too_long', '`into` counts');
  t.equal(path('abc.txt', '', false, 5), 'path_too_long', 'the configured limit');
  t.equal(path('./', '', false), 'invalid_path', 'a file needs a name');
});

t.test('`into` is a folder path', async (t) => {
  t.same(intoFolder(undefined), { folder: '' });
  t.same(intoFolder('a/b/'), { folder: 'a/b' });
  t.same(intoFolder('cafe\u0301'), { folder: 'caf\u00e9' });
  for (const bad of ['../x', '/abs', 'a//b', 'a\\b']) t.ok('problem' in intoFolder(bad), bad);
});

t.test('formats are recognized from the first bytes', async (t) => {
  t.equal(sniff(await makeTar([{ name: 'a', data: 'x' }])), 'tar');
  t.equal(sniff(await makeTar([{ name: 'a', data: 'x' }], { gzip: true })), 'tar.gz');
  t.equal(sniff(await makeZip([{ name: 'a', data: 'x' }])), 'zip');
  t.equal(sniff(await makeZip([])), 'zip', 'an empty zip (its end record only)');
  t.equal(sniff(Buffer.alloc(1024)), 'tar', 'an empty tar (its end blocks only)');
  t.equal(sniff(Buffer.from('hello world '.repeat(100))), null);
  t.equal(sniff(Buffer.alloc(0)), null);
});
