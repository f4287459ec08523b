import { currentDeadline, DeadlineExceeded } from '#lib/shared/deadline';

/** The part of the SDK's HTTP handler this wraps: one attempt of one request. */
interface Handler<Request, Response> {
  handle(request: Request, options?: { abortSignal?: unknown }): Promise<Response>;
}

/**
 * The SDK's HTTP handler bounded by the run's deadline (lib/shared/deadline.ts). It sits under
 * the SDK's retries, so it sees every attempt: an attempt that would start after the deadline is
 * refused with DeadlineExceeded (which the SDK does not retry), and one in flight when the
 * deadline passes is aborted (its socket destroyed) and fails with DeadlineExceeded. Outside a
 * run it is the plain handler. A request aborted in flight may still have reached the store:
 * the same as a crash mid-request, which every write of the engine survives (idempotent,
 * conditional, re-derived from stored state by the next run). Everything else (configuration,
 * `destroy`) is the wrapped handler's own.
 */
export const deadlineBound = <Request, Response, H extends Handler<Request, Response>>(inner: H): H => {
  const handle = async (request: Request, options: { abortSignal?: unknown } = {}): Promise<Response> => {
    const deadline = currentDeadline();
    if (deadline === undefined) return inner.handle(request, options);
    const left = deadline - Date.now();
    if (left <= 0) throw new DeadlineExceeded(deadline);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DeadlineExceeded(deadline)), left);
    const caller = options.abortSignal instanceof AbortSignal ? options.abortSignal : undefined;
    const abortSignal = caller ? AbortSignal.any([caller, controller.signal]) : controller.signal;
    try {
      return await inner.handle(request, { ...options, abortSignal });
    } catch (error) {
      if (controller.signal.aborted) throw new DeadlineExceeded(deadline);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
  return new Proxy(inner, {
    get(target, property) {
      if (property === 'handle') return handle;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
};
