/**
 * A thread's CPU time from Linux's `/proc/<pid>/task/<tid>/stat`: the benchmarks read it for each
 * thread of a measured child (the parent, polling) and for the child's main thread (the child, at
 * exit).
 * @module
 */

/** Clock ticks per second of `/proc/.../stat` (USER_HZ: 100 on every Linux Node runs on). */
export const USER_HZ = 100

/** utime + stime, in clock ticks, of a `/proc/<pid>/task/<tid>/stat` line. */
export function statTicks(stat: string): number {
  // Fields after the command name (which may contain spaces), 1-based from field 3: utime is 14, stime 15.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(rest[11]) + Number(rest[12])
}
