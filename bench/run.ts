/** `npm run bench`: every benchmark in turn (DESIGN §8). Results in bench/results/. */
import { runStatsBench } from './stats';

const main = async () => {
  await runStatsBench();
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
