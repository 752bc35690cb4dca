/**
 * Files that may hold secrets are the owner's alone. The journal's facade lines and the snapshots
 * carry the HMAC secrets of keys registered while serving (`POST /exsim/v1/accounts`), like the
 * `--accounts` file they came from, so every file exsim serve writes (the journal, `FILE.snapshot`,
 * its `.prev`, the temporary file a snapshot is written to) is created with mode 0600: readable
 * by no one else from the moment it exists, whatever the umask (it can only take permissions
 * away). A rename keeps the mode, so the snapshot moved into place and the one moved to `.prev`
 * stay 0600.
 *
 * A file an older build created readable by all (snapshots were 0644 under umask 022) is
 * narrowed when exsim next opens or moves it (`narrowToOwner`).
 */
import { chmodSync, fchmodSync, fstatSync, statSync } from 'node:fs';

export const OWNER_ONLY = 0o600;

/** Takes group and other permissions off an open file that has any. */
export function narrowToOwner(fd: number): void {
  if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, OWNER_ONLY);
}

/** Takes group and other permissions off the file at `path` that has any. */
export function narrowPathToOwner(path: string): void {
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, OWNER_ONLY);
}
