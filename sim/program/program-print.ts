/**
 * Print a program for a report: as builder code (the functions of `scenarios/build.ts`, exported
 * by `dsh-lifecycle-kit/scenarios`, so it can be pasted into a scenario or a program file that
 * `dsh-kit run` runs) or as compact JSON (one actor per line). It sits in `sim/` so that every
 * report (`certify`'s in `conformance/`, the campaign's in `scenarios/`) prints programs alike.
 * @module
 */
import type { Action, ActorSpec, EnvironmentSpec, ListenerSpec, Operation, Program, SetupSpec } from './program.js'

/** Options of {@link printProgram}. */
export interface PrintOptions {
  /** `code` (default): builder calls; `json`: compact JSON, one actor per line. */
  readonly format?: 'code' | 'json'
}

const IDENT = /^[A-Za-z_$][\w$]*$/

function str(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`
}

/** A JS literal for plain JSON data (unquoted identifier keys, single-quoted strings). */
export function literal(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'string') return str(value)
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
    if (entries.length === 0) return '{}'
    return `{ ${entries.map(([k, v]) => `${IDENT.test(k) ? k : str(k)}: ${literal(v)}`).join(', ')} }`
  }
  throw new TypeError(`cannot print ${typeof value} as a program literal`)
}

function action(a: Action): string {
  switch (a.do) {
    case 'throw': return 'THROW'
    case 'reject': return 'REJECT'
    case 'slow': return 'SLOW'
    case 'block': return 'BLOCK'
    case 'op': return `act(${operation(a.op)})`
    case 'wait': return `wait(${str(a.gate)})`
  }
}

/** An object literal whose `onAbort` field (or the one named) is an action and prints as builder code. */
function withActions(fields: Record<string, unknown>, actionField = 'onAbort'): string {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined)
  if (entries.length === 0) return '{}'
  return `{ ${entries.map(([k, v]) => `${k}: ${k === actionField ? action(v as Action) : literal(v)}`).join(', ')} }`
}

function listener(l: ListenerSpec): string {
  const { event, action: a, ...extra } = l
  return `on(${str(event)}, ${action(a)}${Object.keys(extra).length ? `, ${withActions(extra)}` : ''})`
}

function setup(s: SetupSpec): string {
  const { steps, commitOp, effects, listeners, ...rest } = s
  const parts = Object.entries(rest).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${literal(v)}`)
  if (commitOp) parts.push(`commitOp: ${operation(commitOp)}`)
  if (effects) parts.push(`effects: [${effects.map((e) => `{ disposer: ${action(e.disposer)} }`).join(', ')}]`)
  if (listeners) parts.push(`listeners: [${listeners.map(listener).join(', ')}]`)
  return `setup(${steps}${parts.length ? `, { ${parts.join(', ')} }` : ''})`
}

function extra(fields: Record<string, unknown>): string {
  const parts = Object.entries(fields).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${k === 'setup' ? setup(v as SetupSpec) : literal(v)}`)
  return parts.length ? `, { ${parts.join(', ')} }` : ''
}

/** One operation as a builder call, e.g. `create('s1', { setup: setup(2), owner: 'o1' })`. */
export function operation(o: Operation): string {
  switch (o.op) {
    case 'create': case 'resume': {
      const { op, session, ...rest } = o
      return `${op}(${str(session)}${extra(rest)})`
    }
    case 'cancel': {
      const { op: _op, session, ...rest } = o
      return `cancel(${str(session)}${extra(rest)})`
    }
    case 'followup': case 'steer': case 'inject': case 'queue': {
      const { op, session, text, ...rest } = o
      const more = Object.keys(rest).length ? `, ${literal(rest)}` : ''
      return `${op}(${str(session)}${text === undefined ? (more ? ', undefined' : '') : `, ${str(text)}`}${more})`
    }
    case 'remove':
      return `remove(${str(o.session)}${o.which === undefined ? '' : `, ${str(o.which)}`})`
    case 'register': case 'enter': case 'announce':
      return `${o.op}(${str(o.session)})`
    case 'detach':
      return `detach(${str(o.session)}${o.stale ? ', { stale: true }' : ''})`
    case 'boundary':
      return `boundary(${str(o.session)}${o.ops.map((nested) => `, ${operation(nested)}`).join('')})`
    case 'resend':
      return `resend(${str(o.session)}${o.via === undefined ? '' : `, ${str(o.via)}`})`
    case 'runMaintenance':
      if (o.onAbort !== undefined) return `runMaintenance(${str(o.session)}, ${o.steps === undefined ? 'undefined' : o.steps}, ${withActions({ onAbort: o.onAbort })})`
      return `runMaintenance(${str(o.session)}${o.steps === undefined ? '' : `, ${o.steps}`})`
    case 'dispose': case 'whenIdle':
      return `${o.op}(${str(o.session)})`
    case 'abortSignal': return `abortSignal(${str(o.signal)})`
    case 'unloadOwner': return `unloadOwner(${str(o.owner)})`
    case 'unloadFactory': case 'shutdown': case 'restart': case 'crash': case 'pause': return `${o.op}()`
    case 'openGate': return `openGate(${str(o.gate)})`
    case 'flush': return `flush(${str(o.session)})`
  }
}

function actorCode(a: ActorSpec): string {
  return `actor(${str(a.id)}${a.ops.map((o) => `, ${operation(o)}`).join('')})`
}

function environment(env: EnvironmentSpec): string {
  const lines: string[] = []
  if (env.listeners) lines.push(`listeners: [\n    ${env.listeners.map(listener).join(',\n    ')},\n  ]`)
  if (env.effects) lines.push(`effects: [${env.effects.map((e) => `{ on: ${str(e.on)}, disposer: ${action(e.disposer)} }`).join(', ')}]`)
  if (env.model) {
    lines.push(`model: { ${Object.entries(env.model).map(([id, steps]) => `${IDENT.test(id) ? id : str(id)}: [${steps.map((m) =>
      m.reply === 'tool' && m.op ? `{ reply: 'tool', op: ${operation(m.op)} }` : literal(m)).join(', ')}]`).join(', ')} }`)
  }
  if (env.loads) lines.push(`loads: ${literal(env.loads)}`)
  if (env.preparations) {
    const entries = Object.entries(env.preparations).map(([id, p]) => `${IDENT.test(id) ? id : str(id)}: ${withActions(p as Record<string, unknown>, 'onRelease')}`)
    lines.push(`preparations: ${entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`}`)
  }
  if (env.persistence === false) lines.push('persistence: false')
  if (env.ownership) lines.push('ownership: true')
  if (env.minting) lines.push(`minting: [${env.minting.map((m) => `{ action: ${action(m.action)}${m.times === undefined ? '' : `, times: ${m.times}`} }`).join(', ')}]`)
  if (env.persisted) lines.push(`persisted: [\n    ${env.persisted.map((p) => literal(p)).join(',\n    ')},\n  ]`)
  if (lines.length === 0) return '{}'
  return `{\n  ${lines.join(',\n  ')},\n}`
}

/**
 * Print `program` as builder code — `program([actor('a1', create('s1'), …), …], { listeners: […] })`,
 * evaluable with the exports of `scenarios/build.ts` in scope — or as compact JSON.
 */
export function printProgram(program: Program, options: PrintOptions = {}): string {
  if ((options.format ?? 'code') === 'json') {
    const { actors, env, ...head } = program
    const lines = [`{${JSON.stringify(head).slice(1, -1)},"actors":[`]
    actors.forEach((a, i) => lines.push(`  ${JSON.stringify(a)}${i < actors.length - 1 ? ',' : ''}`))
    lines.push(env === undefined ? ']}' : `],"env":${JSON.stringify(env)}}`)
    return lines.join('\n')
  }
  const args = [`[\n  ${program.actors.map(actorCode).join(',\n  ')},\n]`]
  if (program.env !== undefined || program.name !== undefined) args.push(program.env === undefined ? 'undefined' : environment(program.env))
  if (program.name !== undefined) args.push(str(program.name))
  return `program(${args.join(', ')})`
}
