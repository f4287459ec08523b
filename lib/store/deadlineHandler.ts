import { currentDeadline, DeadlineExceeded } from '#lib/shared/deadline';
import { timerMs } from '#lib/shared/timer';

/** The part of the SDK's HTTP handler this wraps: one attempt of one request. */
interface Handler<Request, Response> {
  handle(request: Request, options?: { abortSignal?: unknown }): Promise<Response>;
}

/** The SDK's HTTP handler bounded by the run's deadline, every attempt (docs/adr/0185); outside a run the plain handler. */
export const deadlineBound = <Request, Response, H extends Handler<Request, Response>>(inner: H): H => {
  const handle = async (request: Request, options: { abortSignal?: unknown } = {}): Promise<Response> => {
    const deadline = currentDeadline();
    if (deadline === undefined) return inner.handle(request, options);
    const left = deadline - Date.now();
    if (left <= 0) throw new DeadlineExceeded(deadline);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DeadlineExceeded(deadline)), timerMs(left));
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
