import { description, event, type Schema } from './common';
import { roleId } from './auth';

const permission: Schema = {
  type: 'string',
  pattern: '^[A-Za-z0-9:._*-]{1,64}$',
  description: 'a permission (1 to 64 letters, digits or : . _ * -)',
};

export const events = {
  roleCreate: event({
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name: {
          type: 'string',
          pattern: '^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$',
          description: '1 to 64 letters, digits, spaces, dots, underscores or hyphens, starting with a letter or digit',
        },
        description,
        permissions: { type: 'array', items: permission, maxItems: 64, uniqueItems: true },
      },
    },
  }),
  roleById: event({ path: { roleid: roleId } }),
};
