import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { writeTransaction } from '../../db/write-lock';
import { DEFAULT_AVATAR, FIRST_ADMIN_NICKNAME } from '../../lib/defaults';
import { newId } from '../../lib/ids';
import { hashPassword, randomAdminPassword } from '../../lib/passwords';
import type { AdminRepository } from './admin.repository';

export interface FirstAdmin {
  loginId: string;
  /** The password made at this start, to be shown once; null when none was made now. */
  generatedPassword: string | null;
  created: boolean;
}

/** On an empty admins table, creates the first super admin (ADMIN_LOGIN_ID / ADMIN_PASSWORD). */
export async function ensureFirstSuperAdmin(
  db: Db,
  admins: AdminRepository,
  config: Pick<Config, 'adminLoginId' | 'adminPassword'>,
): Promise<FirstAdmin> {
  if ((await admins.count()) > 0) {
    return { loginId: config.adminLoginId, generatedPassword: null, created: false };
  }
  // ADMIN_PASSWORD passed the administrators' rules in loadConfig; a generated one passes them too.
  const generatedPassword = config.adminPassword
    ? null
    : randomAdminPassword({ loginId: config.adminLoginId, nickname: FIRST_ADMIN_NICKNAME });
  const passwordHash = await hashPassword(config.adminPassword ?? generatedPassword!);
  const created = await writeTransaction(db, ['admins'], (tx) =>
    admins.insert(
      {
        id: newId(),
        loginId: config.adminLoginId,
        passwordHash,
        nickname: FIRST_ADMIN_NICKNAME,
        avatar: DEFAULT_AVATAR,
        permission: 1,
        enabled: true,
        createdAt: Date.now(),
        // A generated password was printed on a console: changed at the first sign-in, as any other.
        mustChangePassword: generatedPassword !== null,
      },
      tx,
    ),
  );
  // Another process starting on the same database may have won the race.
  return created
    ? { loginId: config.adminLoginId, generatedPassword, created: true }
    : { loginId: config.adminLoginId, generatedPassword: null, created: false };
}
