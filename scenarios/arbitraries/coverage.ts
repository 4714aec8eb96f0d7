/**
 * Which operations and behaviours a program exercises, by stable keys (`op:create`,
 * `listener:agent/created:throw`, `listener:where:pending`, `site:abort`, `model:hang`, `load:hang`,
 * `setup:rejectAt`, `minting:op`, `load:gate`, `preparation:release`, …), so a campaign can report the keys its programs never reached. {@link ALL_COVERAGE_KEYS} lists every key the
 * default generator can reach.
 * @module
 */
import { EVENT_NAMES } from '../../core/contract.js'
import type { EffectSpec, ListenerSpec, MintingSpec, ModelStepSpec, Operation, Program, SetupSpec } from '../../sim/program/program.js'
import { OPERATION_KINDS, PAYLOAD_FILTER_FIELDS } from '../../sim/program/program.js'

const ACTIONS = ['throw', 'reject', 'slow', 'op', 'block', 'wait'] as const
const CAUSES = ['user', 'parent', 'hook', 'disposed'] as const
const REPLIES = ['text', 'fail', 'hang', 'tool', 'delay'] as const
const LOADS = ['ok', 'slow', 'fail', 'hang'] as const

/** Where an operation can sit. */
export const OPERATION_SITES = ['actor', 'listener', 'abort', 'effect', 'commit', 'tool', 'minting', 'release'] as const

/** What a persisted log's inbox replay would make of it. */
export type LogClass = 'empty' | 'turns' | 'pending' | 'invalid-splice'

/** Every coverage key the default program generator reaches, in a stable order. */
export const ALL_COVERAGE_KEYS: readonly string[] = Object.freeze([
  ...OPERATION_KINDS.map((k) => `op:${k}`),
  ...OPERATION_SITES.map((s) => `site:${s}`),
  'create:setup', 'create:owner', 'create:parent', 'create:signal', 'create:maxTokens', 'create:invalid-maxTokens', 'create:seeded',
  'resume:setup', 'resume:owner', 'resume:signal',
  'cancel:keepInbox', ...CAUSES.map((c) => `cancel:cause:${c}`),
  'input:text', 'input:mutate', 'input:handle', 'runMaintenance:steps', 'runMaintenance:on-abort', 'remove:last', 'detach:stale',
  'setup:sync', 'setup:async', 'setup:throwSync', 'setup:rejectAt', 'setup:hangAt', 'setup:commitThrows', 'setup:commitOp', 'setup:effects', 'setup:listeners',
  ...EVENT_NAMES.flatMap((e) => ACTIONS.map((a) => `listener:${e}:${a}`)),
  'listener:session-filter', 'listener:event-type-filter', 'listener:times', 'listener:nth', ...PAYLOAD_FILTER_FIELDS.map((f) => `listener:where:${f}`),
  'listener:on-abort', 'listener-site:env', 'listener-site:setup',
  ...['root', 'owner', 'setup'].flatMap((on) => ACTIONS.map((a) => `effect:${on}:${a}`)),
  ...REPLIES.map((r) => `model:${r}`), 'model:tool-op',
  ...LOADS.map((l) => `load:${l}`), 'load:gate',
  'preparation', 'preparation:steps', 'preparation:gate', 'preparation:release', 'persistence:off',
  ...ACTIONS.map((a) => `minting:${a}`), 'minting:times',
  ...(['empty', 'turns', 'pending', 'invalid-splice'] satisfies LogClass[]).map((c) => `persisted:${c}`),
  'actors:1', 'actors:2', 'actors:3', 'actors:4',
])

/**
 * Classify a persisted log by replaying its `agent/inbox/spliced` events with the rules of §6.5
 * (known target, start and removal within the list, message ids unique across both lists).
 */
export function classifyLog(events: ReadonlyArray<{ type: string; data: unknown }>): LogClass {
  if (events.length === 0) return 'empty'
  const lists: Record<string, string[]> = { 'next-turn': [], 'next-step': [] }
  for (const e of events) {
    if (e.type !== 'agent/inbox/spliced') continue
    const s = e.data as { target?: unknown; start?: unknown; removedCount?: unknown; inserted?: unknown } | null
    if (typeof s !== 'object' || s === null || typeof s.target !== 'string' || !(s.target in lists)) return 'invalid-splice'
    const list = lists[s.target]!
    const removed = s.removedCount ?? 0
    if (!Number.isSafeInteger(s.start) || (s.start as number) < 0 || !Number.isSafeInteger(removed) || (removed as number) < 0) return 'invalid-splice'
    const start = s.start as number
    if (start + (removed as number) > list.length || !Array.isArray(s.inserted)) return 'invalid-splice'
    const ids = (s.inserted as Array<{ id?: unknown }>).map((m) => m?.id)
    if (ids.some((id) => typeof id !== 'string')) return 'invalid-splice'
    const kept = new Set([...lists['next-turn']!, ...lists['next-step']!])
    for (const id of list.slice(start, start + (removed as number))) kept.delete(id)
    for (const id of ids as string[]) {
      if (kept.has(id)) return 'invalid-splice'
      kept.add(id)
    }
    list.splice(start, removed as number, ...(ids as string[]))
  }
  return lists['next-turn']!.length + lists['next-step']!.length > 0 ? 'pending' : 'turns'
}

/** How often each coverage key occurs in `program` (keys that do not occur are absent). */
export function coverageOf(program: Program): Record<string, number> {
  const counts: Record<string, number> = {}
  const hit = (key: string): void => { counts[key] = (counts[key] ?? 0) + 1 }

  const listener = (l: ListenerSpec, site: 'env' | 'setup'): void => {
    hit(`listener:${l.event}:${l.action.do}`)
    hit(`listener-site:${site}`)
    if (l.session !== undefined) hit('listener:session-filter')
    if (l.eventType !== undefined) hit('listener:event-type-filter')
    if (l.times !== undefined) hit('listener:times')
    if (l.nth !== undefined) hit('listener:nth')
    for (const f of PAYLOAD_FILTER_FIELDS) if (l.where?.[f] !== undefined) hit(`listener:where:${f}`)
    if (l.action.do === 'op') operation(l.action.op, 'listener')
    if (l.onAbort !== undefined) {
      hit('listener:on-abort')
      if (l.onAbort.do === 'op') operation(l.onAbort.op, 'abort')
    }
  }
  const effect = (e: EffectSpec, on: 'root' | 'owner' | 'setup'): void => {
    hit(`effect:${on}:${e.disposer.do}`)
    if (e.disposer.do === 'op') operation(e.disposer.op, 'effect')
  }
  const setup = (s: SetupSpec): void => {
    hit(s.steps === 0 ? 'setup:sync' : 'setup:async')
    if (s.throwSync) hit('setup:throwSync')
    if (s.rejectAt !== undefined) hit('setup:rejectAt')
    if (s.hangAt !== undefined) hit('setup:hangAt')
    if (s.commitThrows) hit('setup:commitThrows')
    if (s.commitOp !== undefined) { hit('setup:commitOp'); operation(s.commitOp, 'commit') }
    if (s.effects?.length) hit('setup:effects')
    if (s.listeners?.length) hit('setup:listeners')
    s.effects?.forEach((e) => effect(e, 'setup'))
    s.listeners?.forEach((l) => listener(l, 'setup'))
  }
  function operation(o: Operation, site: (typeof OPERATION_SITES)[number]): void {
    hit(`op:${o.op}`)
    hit(`site:${site}`)
    switch (o.op) {
      case 'create':
        if (o.setup) { hit('create:setup'); setup(o.setup) }
        if (o.owner !== undefined) hit('create:owner')
        if (o.parent !== undefined) hit('create:parent')
        if (o.signal !== undefined) hit('create:signal')
        if (o.maxTokens !== undefined) hit(Number.isSafeInteger(o.maxTokens) && o.maxTokens > 0 ? 'create:maxTokens' : 'create:invalid-maxTokens')
        if (o.seeded) hit('create:seeded')
        return
      case 'resume':
        if (o.setup) { hit('resume:setup'); setup(o.setup) }
        if (o.owner !== undefined) hit('resume:owner')
        if (o.signal !== undefined) hit('resume:signal')
        return
      case 'cancel':
        if (o.keepInbox) hit('cancel:keepInbox')
        if (o.cause !== undefined) hit(`cancel:cause:${o.cause}`)
        return
      case 'followup': case 'steer': case 'inject': case 'queue':
        if (o.text !== undefined) hit('input:text')
        if (o.mutate) hit('input:mutate')
        if (o.handle) hit('input:handle')
        return
      case 'remove':
        if (o.which === 'last') hit('remove:last')
        return
      case 'detach':
        if (o.stale) hit('detach:stale')
        return
      case 'runMaintenance':
        if (o.steps !== undefined) hit('runMaintenance:steps')
        if (o.onAbort !== undefined) {
          hit('runMaintenance:on-abort')
          if (o.onAbort.do === 'op') operation(o.onAbort.op, 'abort')
        }
        return
      default:
        return
    }
  }
  const minting = (m: MintingSpec): void => {
    hit(`minting:${m.action.do}`)
    if (m.times !== undefined) hit('minting:times')
    if (m.action.do === 'op') operation(m.action.op, 'minting')
  }
  const modelStep = (m: ModelStepSpec): void => {
    hit(`model:${m.reply}`)
    if (m.reply === 'tool' && m.op) { hit('model:tool-op'); operation(m.op, 'tool') }
  }

  hit(`actors:${program.actors.length}`)
  for (const a of program.actors) for (const o of a.ops) operation(o, 'actor')
  const env = program.env
  env?.listeners?.forEach((l) => listener(l, 'env'))
  env?.effects?.forEach((e) => effect(e, e.on === 'root' ? 'root' : 'owner'))
  for (const steps of Object.values(env?.model ?? {})) steps.forEach(modelStep)
  for (const l of Object.values(env?.loads ?? {})) {
    hit(`load:${l.load}`)
    if (l.load !== 'hang' && l.gate !== undefined) hit('load:gate')
  }
  for (const p of Object.values(env?.preparations ?? {})) {
    hit('preparation')
    if (p.steps !== undefined) hit('preparation:steps')
    if (p.gate !== undefined) hit('preparation:gate')
    if (p.onRelease !== undefined) {
      hit('preparation:release')
      if (p.onRelease.do === 'op') operation(p.onRelease.op, 'release')
    }
  }
  if (env?.persistence === false) hit('persistence:off')
  for (const p of env?.persisted ?? []) hit(`persisted:${classifyLog(p.events)}`)
  env?.minting?.forEach(minting)
  return counts
}

/** Sum coverage over many programs. */
export function mergeCoverage(into: Record<string, number>, from: Record<string, number>): Record<string, number> {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n
  return into
}

/** The keys of {@link ALL_COVERAGE_KEYS} absent from `coverage` (never exercised). */
export function missingCoverage(coverage: Record<string, number>): string[] {
  return ALL_COVERAGE_KEYS.filter((k) => !(coverage[k]! > 0))
}
