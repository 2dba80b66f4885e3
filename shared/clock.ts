/** Time as a parameter: services take a `Clock` so tests can pass a fixed one. */

/** Returns the current moment. */
export type Clock = () => Date;

/** The real wall clock. */
export const systemClock: Clock = () => new Date();

/** Milliseconds in one second, for converting the API's seconds. */
export const MS_PER_SECOND = 1000;
