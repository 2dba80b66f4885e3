/**
 * The live updates of a view: re-read the API every POLL_MS milliseconds,
 * drop the answer of a read that a newer one overtook (a poll racing an
 * action's re-read), and stop when the view is left.
 */

/** Milliseconds between the end of one read of a view's data and the start of the next. */
export const POLL_MS = 2000;

/**
 * Runs `refresh` now, and again POLL_MS milliseconds after each run that is still current.
 *
 * @param {(current: () => boolean) => Promise<void>} refresh - Reads and draws; `current()` turns false
 *   once a newer run started or the view stopped, and its results must then be dropped.
 * @returns {{now: () => Promise<void>, stop: () => void, stopped: () => boolean}} `now` re-reads at once
 *   (after an action); `stop` ends the updates.
 */
export function livePoll(refresh) {
  let timer;
  let sequence = 0;
  let stopped = false;
  const now = async () => {
    clearTimeout(timer);
    const mine = ++sequence;
    const current = () => mine === sequence && !stopped;
    await refresh(current);
    if (current()) timer = setTimeout(now, POLL_MS);
  };
  now();
  return {
    now,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
    stopped: () => stopped,
  };
}
