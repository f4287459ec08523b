/** One field-level problem, as the client sees it: `{ field: "body.severity", message: "..." }`. */
export interface ErrorDetail {
  field?: string;
  message: string;
}

interface HttpErrorOptions {
  details?: ErrorDetail[];
  headers?: Record<string, string>;
  /** Where the spec fixes the body (e.g. a bare JSON string "Filter not found"), send exactly this. */
  body?: unknown;
}

/**
 * The errors domain and data code throw; one middleware maps them to responses.
 * `statusCode` undefined means "the endpoint's invalid-input status" (422 or 400, per spec).
 */
export class HttpError extends Error {
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly body: unknown;

  constructor(
    readonly statusCode: number | undefined,
    message: string,
    options: HttpErrorOptions = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.details = options.details;
    this.headers = options.headers;
    this.body = options.body;
  }
}

export class Invalid extends HttpError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(undefined, message, { details });
  }
}

export class NotFound extends HttpError {
  constructor(message: string, options: HttpErrorOptions = {}) {
    super(404, message, options);
  }
}

export class Conflict extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}

export class Unauthorized extends HttpError {
  constructor(message = 'Authentication required') {
    super(401, message, { headers: { 'www-authenticate': 'Bearer' } });
  }
}

export class Forbidden extends HttpError {
  constructor(message = 'Not allowed') {
    super(403, message);
  }
}

export class TooManyRequests extends HttpError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, { headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
  }
}

export class PayloadTooLarge extends HttpError {
  constructor(limitBytes: number) {
    super(413, `Request body is larger than ${limitBytes} bytes`);
  }
}

/** An answer larger than a Lambda may return: API Gateway would turn it into a bare 502. */
export class AnswerTooLarge extends HttpError {
  constructor(bytes: number, limitBytes: number) {
    super(
      413,
      `The answer would be ${bytes} bytes, over the ${limitBytes} bytes an answer may hold: ask for pages (?limit and ?cursor) or a narrower scope`,
    );
  }
}

export class ServiceUnavailable extends HttpError {
  constructor(message: string, retryAfterSeconds = 1) {
    super(503, message, { headers: { 'retry-after': String(retryAfterSeconds) } });
  }
}

/** A pagination cursor this API did not answer for the same query; the HTTP edge names the parameter it came in. */
export class InvalidCursor extends HttpError {
  constructor() {
    super(undefined, 'cursor is not valid');
  }
}
