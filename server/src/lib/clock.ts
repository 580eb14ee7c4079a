/** Injectable time source, so tests can move the clock (install-code expiry, retries). */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
