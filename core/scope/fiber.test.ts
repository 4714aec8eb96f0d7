import assert from 'node:assert/strict'
import { describe, it } from 'vitest'
import { gate, settle } from '../gates.js'
import type { Agent, FiberState } from '../contract.js'
import { createRoot } from '../root.js'
import { FiberImpl } from './fiber.js'

const INACTIVE = /cannot create effect on inactive context/

function fiber(name = 'f') {
  const warnings: { message: string; error: unknown }[] = []
  const f = new FiberImpl(name, undefined, (message, error) => { warnings.push({ message, error }) })
  return { f, warnings }
}

describe('§2.2 effects', () => {
  it('§2.2 effects: disposers of one effect run once, in reverse order; the effect then leaves the fiber', () => {
    const { f } = fiber()
    const log: string[] = []
    const dispose = f.effect(function* () {
      log.push('execute')
      yield () => { log.push('d1') }
      yield () => { log.push('d2') }
      yield () => { log.push('d3') }
    }, 'composite')
    assert.deepEqual(f.effectLabels(), ['composite'])
    assert.deepEqual(log, ['execute'])
    dispose()
    assert.deepEqual(log, ['execute', 'd3', 'd2', 'd1'])
    assert.deepEqual(f.effectLabels(), [])
    dispose()
    assert.deepEqual(log, ['execute', 'd3', 'd2', 'd1'], 'single-shot')
  })

  it('§2.2 effects: an effect may return nothing, one disposer, or an iterable; a disposed effect is not run again on unload', async () => {
    const { f } = fiber()
    const log: string[] = []
    f.effect(() => undefined, 'none')
    const one = f.effect(() => () => { log.push('one') }, 'one')
    f.effect(() => [() => { log.push('arr1') }, () => { log.push('arr2') }], 'array')
    assert.deepEqual(f.effectLabels(), ['none', 'one', 'array'])
    one()
    assert.deepEqual(log, ['one'])
    await f.unload()
    assert.deepEqual(log, ['one', 'arr2', 'arr1'])
    assert.deepEqual(f.effectLabels(), [])
  })

  it('§2.2 effects: a generator that throws after k yields rolls those k back in reverse order, rethrows, and registers nothing', () => {
    const { f } = fiber()
    const log: string[] = []
    const boom = new Error('execute failed')
    assert.throws(() => f.effect(function* () {
      yield () => { log.push('r1') }
      yield () => { log.push('r2') }
      throw boom
    }, 'failing'), (e) => e === boom)
    assert.deepEqual(log, ['r2', 'r1'])
    assert.deepEqual(f.effectLabels(), [])
    // A plain throwing execute registers nothing either.
    assert.throws(() => f.effect(() => { throw boom }, 'plain'), (e) => e === boom)
    assert.deepEqual(f.effectLabels(), [])
  })

  it('§2.2 effects: a synchronous disposer after an async one runs only once the async one has settled; the wrapper returns that chain', async () => {
    const { f } = fiber()
    const log: string[] = []
    const g = gate()
    const dispose = f.effect(function* () {
      yield () => { log.push('last') }
      yield async () => { log.push('async:start'); await g.promise; log.push('async:end') }
      yield () => { log.push('first') }
    }, 'mixed')
    const result = dispose()
    assert.ok(result instanceof Promise)
    assert.deepEqual(log, ['first', 'async:start'])
    assert.deepEqual(f.effectLabels(), ['mixed'], 'still registered while disposing')
    const joined = dispose()
    await settle()
    assert.deepEqual(log, ['first', 'async:start'])
    g.open()
    await result
    await joined
    assert.deepEqual(log, ['first', 'async:start', 'async:end', 'last'])
    assert.deepEqual(f.effectLabels(), [])
  })

  it('§2.2 effects (kit choice, cf. §5.4): a failing disposer, sync or async, is logged and does not skip later disposers', async () => {
    const { f, warnings } = fiber()
    const log: string[] = []
    const syncErr = new Error('sync disposer')
    const asyncErr = new Error('async disposer')
    const dispose = f.effect(function* () {
      yield () => { log.push('d1') }
      yield () => { log.push('d2'); throw syncErr }
      yield async () => { log.push('d3'); throw asyncErr }
      yield () => { log.push('d4'); throw syncErr }
    }, 'failing')
    await dispose()
    assert.deepEqual(log, ['d4', 'd3', 'd2', 'd1'])
    assert.deepEqual(warnings.map((w) => w.error), [syncErr, asyncErr, syncErr])
    assert.ok(warnings.every((w) => w.message.includes('failing')))
    assert.deepEqual(f.effectLabels(), [])
  })

  it('§2.2 effects: creating an effect on an unloading or disposed fiber throws cannot create effect on inactive context', async () => {
    const { f } = fiber()
    let during: unknown
    f.effect(() => () => {
      try { f.effect(() => undefined) } catch (error) { during = error }
    })
    const unloading = f.unload()
    assert.equal(f.state, 'unloading')
    assert.throws(() => f.effect(() => undefined), INACTIVE)
    await unloading
    assert.match(String((during as Error)?.message), INACTIVE)
    assert.equal(f.state, 'disposed')
    assert.throws(() => f.effect(() => undefined), INACTIVE)
  })

  it('§2.2 effects: a reentrant unload triggered inside execute still finds and runs the effect\'s disposers', async () => {
    const { f } = fiber()
    const log: string[] = []
    let unloading: Promise<void> | undefined
    f.effect(function* () {
      yield () => { log.push('d1') }
      unloading = f.unload()
      log.push('after-unload-request')
      yield () => { log.push('d2') }
    }, 'reentrant')
    assert.ok(unloading)
    await unloading
    assert.deepEqual(log, ['after-unload-request', 'd2', 'd1'])
    assert.equal(f.state, 'disposed')
    assert.deepEqual(f.effectLabels(), [])
  })
})

describe('§2.3 fiber unload', () => {
  it('§2.3 unload: observers see unloading synchronously, effects dispose concurrently, then disposed; memoized', async () => {
    const { f } = fiber()
    const states: FiberState[] = []
    f.onStateChange((s) => { states.push(s) })
    const ga = gate()
    const gb = gate()
    const log: string[] = []
    f.effect(() => async () => { log.push('a:start'); await ga.promise; log.push('a:end') }, 'a')
    f.effect(() => async () => { log.push('b:start'); await gb.promise; log.push('b:end') }, 'b')
    const first = f.unload()
    assert.deepEqual(states, ['unloading'], 'synchronously')
    assert.equal(f.unload(), first, 'memoized')
    assert.deepEqual(log, [], 'each effect starts after one microtask')
    await settle()
    assert.deepEqual(log, ['a:start', 'b:start'], 'b does not wait for a')
    gb.open()
    await settle()
    assert.deepEqual(log, ['a:start', 'b:start', 'b:end'])
    assert.equal(f.state, 'unloading')
    ga.open()
    await first
    assert.deepEqual(states, ['unloading', 'disposed'])
    assert.deepEqual(log, ['a:start', 'b:start', 'b:end', 'a:end'])
  })

  it('§2.3 unload: a failing effect is logged and does not prevent the others or the disposed state', async () => {
    const { f, warnings } = fiber()
    const boom = new Error('effect failed')
    const log: string[] = []
    f.effect(() => () => { throw boom }, 'bad')
    f.effect(() => async () => { throw boom }, 'bad-async')
    f.effect(() => () => { log.push('good') }, 'good')
    await f.unload()
    assert.deepEqual(log, ['good'])
    assert.equal(f.state, 'disposed')
    assert.equal(warnings.filter((w) => w.error === boom).length, 2)
  })

  it('§2.3 unload: a throwing state observer is logged and does not stop the unload or other observers', async () => {
    const { f, warnings } = fiber()
    const seen: FiberState[] = []
    f.onStateChange(() => { throw new Error('observer') })
    const off = f.onStateChange((s) => { seen.push(s) })
    await f.unload()
    assert.deepEqual(seen, ['unloading', 'disposed'])
    assert.equal(warnings.length, 2)
    off()
  })
})

describe('§2.4 scope', () => {
  it('§2.4 scope: a child scope is usable synchronously, tagged with its key, and unloads with its parent fiber', async () => {
    const root = createRoot({ warn: () => undefined })
    const key = { k: 'child' }
    const parent = root.ctx.createScope(undefined, 'parent')
    const child = parent.ctx.createScope(key, 'child')
    assert.equal(child.ctx.scopeKey, key)
    assert.equal(child.ctx.fiber.parent, parent.ctx.fiber)
    assert.equal(child.ctx.fiber.state, 'active')
    const log: string[] = []
    child.ctx.effect(() => () => { log.push('child effect') })
    await parent.dispose()
    assert.deepEqual(log, ['child effect'])
    assert.equal(child.ctx.fiber.state, 'disposed')
    assert.throws(() => child.ctx.effect(() => undefined), INACTIVE)
    assert.throws(() => child.ctx.on('agent/status', () => undefined), INACTIVE)
    assert.throws(() => parent.ctx.createScope('x'), INACTIVE)
  })

  it('§2.4 scope: dispose is memoized and resolves only after every async disposer, including nested scopes\', has finished', async () => {
    const root = createRoot({ warn: () => undefined })
    const scope = root.ctx.createScope({ k: 1 }, 'outer')
    const nested = scope.ctx.createScope({ k: 2 }, 'nested')
    const g = gate()
    const log: string[] = []
    nested.ctx.effect(() => async () => { await g.promise; log.push('nested async done') })
    scope.ctx.effect(() => () => { log.push('outer sync') })
    const first = scope.dispose()
    assert.equal(scope.dispose(), first, 'memoized')
    let done = false
    void first.then(() => { done = true })
    await settle()
    assert.equal(done, false)
    assert.deepEqual(log, ['outer sync'])
    g.open()
    await first
    assert.deepEqual(log, ['outer sync', 'nested async done'])
    assert.equal(nested.ctx.fiber.state, 'disposed')
    await settle()
    assert.ok(!root.ctx.fiber.effectLabels().includes('scope:outer'), 'the parent no longer holds the child')
  })

  it('AGENT-PUBLIC-INTERFACE 12 (unit): a plain context\'s agent is undefined; derived contexts inherit tags, nearest tag wins', () => {
    const root = createRoot({ warn: () => undefined })
    assert.equal(root.ctx.agent, undefined)
    assert.equal(root.ctx.scopeKey, undefined)
    const plainScope = root.ctx.createScope(undefined, 'plugin')
    assert.equal(plainScope.ctx.agent, undefined)
    const agent = { id: 'a' } as unknown as Agent
    const other = { id: 'b' } as unknown as Agent
    const tagged = root.ctx.extend({ scopeKey: agent, agent })
    assert.equal(tagged.agent, agent)
    assert.equal(tagged.scopeKey, agent)
    assert.equal(tagged.fiber, root.ctx.fiber, 'a derived context shares the fiber')
    const derived = tagged.extend({})
    assert.equal(derived.agent, agent, 'inherited')
    assert.equal(derived.scopeKey, agent)
    const nearest = tagged.extend({ agent: other })
    assert.equal(nearest.agent, other, 'nearest tag wins')
    assert.equal(nearest.scopeKey, agent)
    const childScope = tagged.createScope({ k: 'child' })
    assert.equal(childScope.ctx.agent, agent, 'a scope minted under an agent context carries the agent')
    assert.equal(root.ctx.agent, undefined, 'the root context is unchanged')
  })
})
