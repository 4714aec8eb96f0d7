/**
 * A wait that never resumes (a crashed process's). A fresh promise each time: a shared one would keep
 * every continuation ever parked on it (and through them every crashed run's world) reachable forever.
 * @module
 */
export function never(): Promise<never> {
  return new Promise<never>(() => {})
}
