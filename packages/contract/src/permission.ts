// Who may call an operation of a given permission level (seed: "Permission levels"). Kept apart
// from how a caller is identified, so the mock applies the same levels to the callers it accepts.
import type { Permission } from './operation-index.ts';

/** The part of a caller the permission levels look at. */
export interface PermittedCaller {
  user: { admin?: boolean };
}

/** Whether a caller (or nobody) may use an operation of this permission level. */
export function permits(permission: Permission, caller: PermittedCaller | undefined): boolean {
  switch (permission) {
    case 'None':
    case 'API only':
      return true;
    case 'Connected + API':
    case 'Connected + API + 2FA': // an API JWT satisfies the 2FA filter (seed: Authentication, Rules)
      return caller !== undefined;
    case 'admin':
      return caller?.user.admin === true;
    default:
      return false;
  }
}
