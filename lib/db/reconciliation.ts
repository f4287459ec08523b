import { Reconciliation } from '#lib/store/entities/alarms';

/* When the alarm engine last finished a full reconciliation pass (epoch ms). */
export const reconciliation = {
  async lastAt(): Promise<number> {
    return (await Reconciliation.find(undefined, { consistent: true })) ?? 0;
  },
  async done(at: number): Promise<void> {
    await Reconciliation.put(undefined, { lastFullRunAt: at });
  },
};
