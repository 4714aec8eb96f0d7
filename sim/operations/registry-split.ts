/**
 * The `enter`, `announce` and `detach` operations: the registry's enter/announce split (§4) driven
 * one step at a time on stub agents (`stub-agent.ts`), from an actor or from inside any listener.
 * Each step knows what the contract says it does (§9 71–79) from the stub's own history and the
 * registry as it reads before and after the call, and marks a disagreement
 * `registry split <clause> <what>` for the checkers (`conformance/checkers/kit-level.ts`).
 * @module
 */
import type { Agent, SessionId } from '../../core/contract.js'
import { createStubAgent } from '../world/stub-agent.js'
import type { OperationResult, StubEntry, WorldHost } from '../world/world-host.js'
import { stringText as errorText } from '../trace/bounded-text.js'

/** The mark label prefix of a registry-split step that disagreed with the contract. */
export const SPLIT_MARK = 'registry split'

/** One stub a program entered, and what the program did with it so far. */


/** How many `event` entries named `name` for `id` the trace has from index `from` on. */
function eventsSince(world: WorldHost, from: number, name: string, id: SessionId): number {
  let n = 0
  const entries = world.trace.entries
  for (let i = from; i < entries.length; i++) {
    const e = entries[i]!
    if (e.k === 'event' && e.name === name && e.id === id) n++
  }
  return n
}

function mark(world: WorldHost, id: SessionId, clause: number, what: string): void {
  world.trace.mark(`${SPLIT_MARK} ${clause} ${what}`, world.generation, { id })
}

/**
 * `ctx.agents.enter(stub, undefined)` with a fresh stub under `id`; keeps the detach it returns.
 * `made` hears the stub before it is entered (the operation records it as the stub's owner).
 */
export function enterStub(world: WorldHost, id: SessionId, made: (stub: Agent) => void = () => undefined): OperationResult {
  const agents = world.ctx.agents
  if (typeof agents.enter !== 'function') return { status: 'info', detail: 'enter not supported' }
  const stub = createStubAgent(id)
  world.stubAgents.add(stub)
  world.enteredStubs.add(stub)
  made(stub)
  const live = agents.get(id)
  const from = world.trace.entries.length
  let detach: () => void
  try {
    detach = agents.enter(stub, undefined)
  } catch (error) {
    const text = errorText(error)
    if (live === undefined) throw error
    if (!/already registered/.test(text)) mark(world, id, 73, `enter of the live id "${id}" threw "${text}" instead of already registered`)
    if (agents.get(id) !== live) mark(world, id, 73, `a refused enter of the live id "${id}" replaced its entry`)
    return { status: 'ok', detail: 'rejected already registered' }
  }
  if (live !== undefined) mark(world, id, 73, `enter of the live id "${id}" was accepted (must throw already registered)`)
  const created = eventsSince(world, from, 'agent/created', id)
  if (created > 0) mark(world, id, 71, `enter of "${id}" emitted agent/created (enter emits nothing)`)
  if (agents.get(id) !== stub) mark(world, id, 71, `after enter, agents.get("${id}") is not the entered agent`)
  const list = world.entered.get(id) ?? []
  list.push({ stub, detach, announced: false, announcing: false, deferred: false, detached: false })
  world.entered.set(id, list)
  return { status: 'ok', detail: 'entered' }
}

/** `ctx.agents.announce(stub)` of the stub entered last under `id`. */
export function announceStub(world: WorldHost, id: SessionId): OperationResult {
  const entry = world.entered.get(id)?.at(-1)
  if (!entry) return { status: 'info', detail: 'nothing entered' }
  const agents = world.ctx.agents
  const live = agents.get(id) === entry.stub
  const repeat = entry.announced
  const from = world.trace.entries.length
  // §4: the entry is marked announced before the dispatch (a reentrant announce is a repeat).
  if (live && !repeat) entry.announced = entry.announcing = true
  try {
    agents.announce(entry.stub)
  } catch (error) {
    const text = errorText(error)
    // §4 announce: an object that is not the live entry is refused first, then a repeat.
    if (!live) {
      if (!/not live/.test(text)) mark(world, id, 75, `announce of an agent that is not the live entry of "${id}" threw "${text}" instead of not live`)
      return { status: 'ok', detail: 'rejected not live' }
    }
    if (repeat) {
      if (!/already announced/.test(text)) mark(world, id, 74, `a second announce of "${id}" threw "${text}" instead of already announced`)
      return { status: 'ok', detail: 'rejected already announced' }
    }
    // A throwing agent/created listener (a veto): the announcement began all the same.
    throw error
  } finally {
    entry.announcing = false
  }
  if (!live) mark(world, id, 75, `announce of an agent that is not the live entry of "${id}" was accepted (must throw not live)`)
  else if (repeat) mark(world, id, 74, `a second announce of "${id}" was accepted (must throw already announced)`)
  if (repeat || !live) return { status: 'ok', detail: 'announced' }
  const created = eventsSince(world, from, 'agent/created', id)
  if (created !== 1) mark(world, id, 71, `announce of "${id}" emitted agent/created ${created} times (exactly once)`)
  if (entry.deferred) {
    // §4 announce step 5: the detach requested during the dispatch is performed once it ended.
    if (agents.get(id) === entry.stub) mark(world, id, 78, `"${id}" is still registered after its agent/created dispatch ended, although a created listener detached it`)
    if (eventsSince(world, from, 'agent/disposed', id) !== 1) mark(world, id, 78, `the detach a created listener requested for "${id}" did not emit agent/disposed once after the dispatch`)
  }
  return { status: 'ok', detail: entry.deferred ? 'announced, then detached' : 'announced' }
}

/** The `detach` that `enter` returned for the stub entered last under `id` (with `stale`, the one before it). */
export function detachStub(world: WorldHost, id: SessionId, stale: boolean): OperationResult {
  const list = world.entered.get(id) ?? []
  const entry = stale ? list.at(-2) : list.at(-1)
  if (!entry) return { status: 'info', detail: stale ? 'no earlier entry' : 'nothing entered' }
  const agents = world.ctx.agents
  const before = agents.get(id)
  const from = world.trace.entries.length
  const again = entry.detached
  entry.detach()
  entry.detached = true
  const after = agents.get(id)
  const disposed = eventsSince(world, from, 'agent/disposed', id)
  if (again) {
    if (after !== before || disposed > 0) mark(world, id, 76, `a second detach of "${id}" was not a no-op`)
    return { status: 'ok', detail: 'again' }
  }
  if (entry.announcing) {
    // From inside its own agent/created dispatch: deferred (§4 detach step 5, §9 78).
    entry.deferred = true
    if (after !== entry.stub) mark(world, id, 78, `a detach from inside the agent/created dispatch of "${id}" removed it before the dispatch ended`)
    if (disposed > 0) mark(world, id, 78, `a detach from inside the agent/created dispatch of "${id}" emitted agent/disposed before the dispatch ended`)
    return { status: 'ok', detail: 'deferred' }
  }
  if (before !== entry.stub) {
    if (after !== before) mark(world, id, 76, `a stale detach of "${id}" removed the entry that replaced it`)
    if (disposed > 0) mark(world, id, 76, `a stale detach of "${id}" emitted agent/disposed`)
    return { status: 'ok', detail: 'stale' }
  }
  if (after === entry.stub) mark(world, id, 76, `detach left "${id}" registered`)
  if (!entry.announced && disposed > 0) mark(world, id, 79, `detach of "${id}", entered and never announced, emitted agent/disposed`)
  if (entry.announced && disposed !== 1) mark(world, id, 76, `detach of the announced "${id}" emitted agent/disposed ${disposed} times (exactly once)`)
  return { status: 'ok', detail: entry.announced ? 'detached' : 'detached silently' }
}
