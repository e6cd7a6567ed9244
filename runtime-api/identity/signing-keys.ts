// ES256 signing keys kept in PostgreSQL: created on first boot, rotatable. The active key signs; `next` and
// recently retired keys stay published in the JWKS so that tokens verify across a rotation.
import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from 'jose';
import type { Sql } from 'postgres';
import { newId } from '../ids.ts';

export interface SigningKey {
  kid: string;
  state: 'next' | 'active' | 'retired';
  publicJwk: JWK;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  retiredAt: Date | null;
}

const LOCK_KEY = 7301_0002;
/** A retired key stays in the JWKS long enough for every token it signed to expire. */
const RETIRED_KEEP_MS = 2 * 3600_000;

async function createKey(sql: Sql, state: 'next' | 'active'): Promise<void> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = newId('key');
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'ES256' };
  await sql`insert into signing_keys (kid, public_jwk, private_jwk, state, activated_at)
    values (${kid}, ${sql.json(publicJwk as never)}, ${sql.json(privateJwk as never)}, ${state}, ${state === 'active' ? sql`now()` : null})`;
}

export class SigningKeys {
  private keys: SigningKey[] = [];
  private readonly sql: Sql;
  private loadedAt = 0;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  /** Load the keys, creating the first active key if there is none (once, under an advisory lock). */
  async init(): Promise<this> {
    await this.sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(${LOCK_KEY})`;
      const [active] = await tx`select kid from signing_keys where state = 'active'`;
      if (!active) await createKey(tx as unknown as Sql, 'active');
    });
    await this.reload();
    return this;
  }

  async reload(): Promise<void> {
    const rows = await this.sql`select kid, state, public_jwk, private_jwk, retired_at from signing_keys
      where state <> 'retired' or retired_at > now() - make_interval(secs => ${RETIRED_KEEP_MS / 1000})
      order by created_at`;
    this.keys = await Promise.all(
      rows.map(async (r) => ({
        kid: r.kid as string,
        state: r.state as SigningKey['state'],
        publicJwk: r.public_jwk as JWK,
        privateKey: (await importJWK(r.private_jwk as JWK, 'ES256')) as CryptoKey,
        publicKey: (await importJWK(r.public_jwk as JWK, 'ES256')) as CryptoKey,
        retiredAt: r.retired_at as Date | null,
      })),
    );
    this.loadedAt = Date.now();
  }

  active(): SigningKey {
    const key = this.keys.find((k) => k.state === 'active');
    if (!key) throw new Error('no active signing key; call init()');
    return key;
  }

  /** Whether `kid` is among the loaded (published) keys, without touching the database. */
  has(kid: string): boolean {
    return this.keys.some((k) => k.kid === kid);
  }

  /** The key for a `kid`, reloading once (rate-limited) when another instance rotated. */
  async find(kid: string): Promise<SigningKey | undefined> {
    let key = this.keys.find((k) => k.kid === kid);
    if (!key && Date.now() - this.loadedAt > 1000) {
      await this.reload();
      key = this.keys.find((k) => k.kid === kid);
    }
    return key;
  }

  /** Published keys: next, active, and recently retired. */
  jwks(): { keys: JWK[] } {
    return { keys: this.keys.map((k) => k.publicJwk) };
  }

  /** Rotation: the `next` key (created if absent) becomes active; the active one is retired but stays published. */
  async rotate(): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(${LOCK_KEY})`;
      const [next] = await tx`select kid from signing_keys where state = 'next' order by created_at limit 1`;
      await tx`update signing_keys set state = 'retired', retired_at = now() where state = 'active'`;
      if (next) await tx`update signing_keys set state = 'active', activated_at = now() where kid = ${next.kid}`;
      else await createKey(tx as unknown as Sql, 'active');
    });
    await this.reload();
  }

  /** Publish a `next` key ahead of its activation. */
  async prepareNext(): Promise<void> {
    const [next] = await this.sql`select kid from signing_keys where state = 'next'`;
    if (!next) await createKey(this.sql, 'next');
    await this.reload();
  }
}
