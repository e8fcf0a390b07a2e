import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's default algorithm) at OWASP's parameters: 19 MiB, 2 iterations,
// parallelism 1.
const options = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}
