import { description, event, name, type Schema } from './common';

const fields: Record<string, Schema> = {
  name: name(),
  description,
  url: {
    type: 'string',
    format: 'uri',
    pattern: '^https?://',
    maxLength: 2048,
    description: 'an http or https URL',
  },
  active: { type: 'boolean' },
};

const serviceId: Schema = {
  type: 'string',
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  description: 'a service id (UUID)',
};

export const events = {
  serviceCreate: event({
    body: { type: 'object', additionalProperties: false, required: ['name', 'url'], properties: fields },
  }),
  serviceUpdate: event({
    path: { id: serviceId },
    body: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: fields,
      description: 'an object with at least one of name, description, url, active',
    },
  }),
  serviceById: event({ path: { id: serviceId } }),
};
