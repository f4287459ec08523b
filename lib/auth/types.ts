/** A role: users carry its `roleid`. Only `admin` manages accounts (DESIGN §5). */
export interface Role {
  roleid: string;
  name: string;
  description: string;
  permissions: string[];
  builtIn: boolean;
  createdAt?: string;
  updatedAt?: string;
}

export const ADMIN_ROLE = 'admin';
export const VIEWER_ROLE = 'viewer';
