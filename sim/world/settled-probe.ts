/**
 * The settled-state probe: each time the process has settled, the scheduler asks the world to
 * record what its live agents read (status, pending inbox, a running maintenance, whether a
 * `whenIdle()` settles), the sessions whose stored log differs from the live one, and the held
 * handles whose agent left the registry but does not read idle. The quiescence checkers judge these
 * records. Reads only the public contract.
 * @module
 */
import type { Agent, Session } from '../../core/contract.js'
import type { ProbeAgent, QuiescentProbe } from '../trace/trace.js'
import type { WorldHost } from './world-host.js'

/** Takes the probes of one world (and its successors after restarts). */
export class SettledProbe {
  /** A pending `whenIdle()` asked of each agent, kept until it settles, with the agent's news when asked. */
  readonly #idleProbes = new WeakMap<Agent, { settled: boolean; news: number }>()
  /** The trace length at the last probe: nothing happened since, nothing to record. */
  #probedAt = -1

  /**
   * `openTurns`: per live session, whether its log leaves a turn open (the world keeps it from the
   * appends it observes); `news`: how many events about an agent the world observed so far.
   */
  constructor(private readonly world: WorldHost, private readonly openTurns: WeakMap<Session, boolean>, private readonly news: (agent: Agent) => number = () => 0) {}

  /**
   * A quiescence probe (the scheduler calls it each time the process has settled): per live agent
   * its status, its pending inbox, whether a maintenance task runs, and — where a check needs it —
   * whether a `whenIdle()` settles; live sessions whose persisted log differs from theirs; held
   * handles whose agent left the registry but does not read idle. Reads only the public contract.
   *
   * `whenIdle()` is asked of an idle agent when something could be left behind (pending input, a
   * turn its log leaves open), at the run's last probe, and once more whenever something happened to
   * it since it was last asked (an event of it or of its session: with nothing new, the answer is
   * the one it gave); and once per activity of a running one (a pending call is kept until it
   * settles). Its settling costs a few microtasks, and one more real turn only when an idle agent's
   * has not settled by then.
   */
  take(turn: () => Promise<void>, last: boolean): Promise<void> | undefined {
    if (this.world.trace.entries.length === this.#probedAt && !last) return undefined
    this.#probedAt = this.world.trace.entries.length
    let live: Agent[]
    try {
      live = this.world.ctx.agents.list()
    } catch {
      return undefined
    }
    const rows: ProbeRow[] = []
    let asked = false
    for (const agent of live) {
      if (this.world.stubAgents.has(agent)) continue
      let status: string
      let nextTurn: readonly { id: string }[]
      let nextStep: readonly { id: string }[]
      try {
        status = String(agent.status)
        nextTurn = agent.inbox.nextTurn
        nextStep = agent.inbox.nextStep
      } catch {
        continue
      }
      const row: ProbeRow = {
        agent, status,
        nextTurn: nextTurn.length > 0 ? nextTurn.map((m) => m.id) : undefined,
        nextStep: nextStep.length > 0 ? nextStep.map((m) => m.id) : undefined,
        maintenance: (this.world.maintaining.get(agent) ?? 0) > 0, probe: undefined, fresh: false,
      }
      rows.push(row)
      let probe = this.#idleProbes.get(agent)
      const news = this.news(agent)
      if (!(status === 'running' || last || row.nextTurn || row.nextStep || this.openTurns.get(agent.session) === true || probe === undefined || !probe.settled || probe.news !== news)) continue
      if (probe === undefined || probe.settled) {
        const p = { settled: false, news }
        probe = p
        row.fresh = asked = true
        this.#idleProbes.set(agent, p)
        try {
          agent.whenIdle().then(() => { p.settled = true }, () => { p.settled = true })
        } catch {
          p.settled = true
        }
      }
      row.probe = probe
    }
    // Nothing asked: record at once (no microtask, no allocation of a promise).
    if (!asked) {
      this.#record(rows, last)
      return undefined
    }
    return (async () => {
      for (let k = 0; k < 8; k++) await undefined
      if (rows.some((r) => r.fresh && r.status === 'idle' && !r.maintenance && !r.probe!.settled)) await turn()
      this.#record(rows, last)
    })()
  }

  /** Record a probe of `rows`, with the stored logs and detached handles as they read now. */
  #record(rows: readonly ProbeRow[], last: boolean): void {
    const agents: ProbeAgent[] = []
    for (const { agent, status, nextTurn, nextStep, maintenance, probe, fresh } of rows) {
      // Built field by field: a probe is taken at every settle, so it allocates as little as it can.
      const row: { -readonly [K in keyof ProbeAgent]: ProbeAgent[K] } = { id: agent.id, status }
      if (probe !== undefined && status === 'idle') row.idle = probe.settled
      if (maintenance) row.maintenance = true
      if (fresh && status === 'running' && probe!.settled) row.idleWhileRunning = true
      if (nextTurn) row.nextTurn = nextTurn
      if (nextStep) row.nextStep = nextStep
      agents.push(row)
    }
    let logs: { id: string; live: number; stored: number | null }[] | undefined
    try {
      for (const session of this.world.ctx.sessions.list()) {
        const stored = this.world.disk.get(session.id)?.events.length ?? null
        if (stored !== session.events.length) (logs ??= []).push({ id: session.id, live: session.events.length, stored })
      }
    } catch { /* an unreadable store shows nothing */ }
    let detached: { id: string; status: string }[] | undefined
    for (const [id, handle] of this.world.handles) {
      try {
        // (what a disposed agent does after the program sent to it through a kept handle is unspecified, §12 Q3)
        if (this.world.ctx.agents.get(id) === handle.agent || this.world.sentAfterDisposal(handle.agent)) continue
        const status = String(handle.agent.status)
        if (status !== 'idle') (detached ??= []).push({ id, status })
      } catch { /* unreadable */ }
    }
    const probe: { -readonly [K in keyof Omit<QuiescentProbe, 'at' | 'd'>]: QuiescentProbe[K] } = { world: this.world.generation, agents }
    if (last) probe.last = true
    if (logs) probe.logs = logs
    if (detached) probe.detached = detached
    this.world.trace.probe(probe)
  }
}

/** One live agent as a probe reads it, before it is recorded. */
interface ProbeRow {
  readonly agent: Agent
  readonly status: string
  readonly nextTurn: string[] | undefined
  readonly nextStep: string[] | undefined
  readonly maintenance: boolean
  /** The `whenIdle()` asked of it, when a check needs it. */
  probe: { settled: boolean; news: number } | undefined
  /** Asked in this probe. */
  fresh: boolean
}
