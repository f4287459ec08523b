import { NodeHttpHandler } from '@smithy/node-http-handler';
import { currentDeadline, DeadlineExceeded } from '#lib/shared/deadline';

type Handle = NodeHttpHandler['handle'];

/**
 * The SDK's HTTP handler bounded by the run's deadline (lib/shared/deadline.ts). It sits under
 * the SDK's retries, so it sees every attempt: an attempt that would start after the deadline is
 * refused with DeadlineExceeded (which the SDK does not retry), and one in flight when the
 * deadline passes is aborted (its socket destroyed) and fails with DeadlineExceeded. Outside a
 * run it is the plain handler. A request aborted in flight may still have reached the store:
 * the same as a crash mid-request, which every write of the engine survives (idempotent,
 * conditional, re-derived from stored state by the next run).
 */
export class DeadlineBoundHandler extends NodeHttpHandler {
  override async handle(...[request, options = {}]: Parameters<Handle>): ReturnType<Handle> {
    const deadline = currentDeadline();
    if (deadline === undefined) return super.handle(request, options);
    const left = deadline - Date.now();
    if (left <= 0) throw new DeadlineExceeded(deadline);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DeadlineExceeded(deadline)), left);
    const caller = options.abortSignal as AbortSignal | undefined;
    const abortSignal = caller ? AbortSignal.any([caller, controller.signal]) : controller.signal;
    try {
      return await super.handle(request, { ...options, abortSignal });
    } catch (error) {
      if (controller.signal.aborted) throw new DeadlineExceeded(deadline);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}
