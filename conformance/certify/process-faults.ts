/**
 * Unhandled rejections and uncaught exceptions raised by code under test while a directed case
 * runs are the implementation's faults, charged to the case, never a crash of the kit. While `fn`
 * runs (and one macrotask after, when Node reports late rejections) the process's own listeners
 * (a test runner's, say) are set aside and restored afterwards.
 * @module
 */
import { describeThrown as describe } from '../../sim/trace/bounded-text.js'

/** Run `fn`, collecting what went unhandled meanwhile, one line each. */
export async function captureProcessFaults<T>(fn: () => Promise<T>): Promise<{ settled: T; faults: string[] }> {
  const faults: string[] = []
  const onRejection = (reason: unknown): void => { faults.push(`left a promise rejection unhandled (${describe(reason)})`) }
  const onException = (error: unknown): void => { faults.push(`threw an uncaught exception (${describe(error)})`) }
  const savedRejection = process.listeners('unhandledRejection')
  const savedException = process.listeners('uncaughtException')
  process.removeAllListeners('unhandledRejection')
  process.removeAllListeners('uncaughtException')
  process.on('unhandledRejection', onRejection)
  process.on('uncaughtException', onException)
  try {
    const settled = await fn()
    await new Promise<void>((resolve) => setImmediate(resolve))
    return { settled, faults }
  } finally {
    process.off('unhandledRejection', onRejection)
    process.off('uncaughtException', onException)
    for (const l of savedRejection) process.on('unhandledRejection', l)
    for (const l of savedException) process.on('uncaughtException', l)
  }
}
