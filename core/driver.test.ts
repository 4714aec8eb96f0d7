import { describe, expect, it } from 'vitest'
import { createRoot, createUserMessage, installReferenceFactory, ScriptedModel, script } from './index.js'
import type { Context } from './index.js'

function harness(): Context {
  const root = createRoot({ model: new ScriptedModel([], script.text('reply')) })
  installReferenceFactory(root.ctx)
  return root.ctx
}

describe('driver: an abort that lands once a turn has closed', () => {
  it('AGENT-TEARDOWN-TEST 107: a teardown requested from an observer of turn/end, with work pending, opens no further turn', async () => {
    const ctx = harness()
    const handle = await ctx.agents.create({ sessionId: 's1' })
    let disposing: Promise<void> | undefined
    ctx.on('session/event', (_session, event) => {
      if (event.type === 'turn/end' && !disposing) disposing = handle.dispose()
    })
    handle.agent.followup(createUserMessage({ content: 'one' }))
    handle.agent.followup(createUserMessage({ content: 'two' }))
    await handle.agent.whenIdle()
    await disposing
    const types = handle.agent.session.events.map((e) => e.type)
    expect(types.filter((t) => t === 'turn/start')).toHaveLength(1)
    // The second message was pending at the request: the teardown canceled it durably (§9 114).
    expect(handle.agent.inbox.hasPending).toBe(false)
    expect(types.at(-1)).toBe('agent/inbox/spliced')
  })

  it('X-CANCEL 143: a keepInbox cancel from an observer of turn/end ends the driver; the parked work runs at the next wake', async () => {
    const ctx = harness()
    const { agent } = await ctx.agents.create({ sessionId: 's1' })
    let cancelled = false
    ctx.on('session/event', (_session, event) => {
      if (event.type === 'turn/end' && !cancelled) {
        cancelled = true
        agent.cancel({ kind: 'user' }, { keepInbox: true })
      }
    })
    agent.followup(createUserMessage({ content: 'one' }))
    agent.followup(createUserMessage({ content: 'two' }))
    await agent.whenIdle()
    expect(agent.session.events.filter((e) => e.type === 'turn/start')).toHaveLength(1)
    expect(agent.inbox.nextTurn).toHaveLength(1)
    agent.followup(createUserMessage({ content: 'three' }))
    await agent.whenIdle()
    expect(agent.session.events.filter((e) => e.type === 'turn/end').map((e) => (e.data as { reason: { kind: string } }).reason.kind)).toEqual(['completed', 'completed', 'completed'])
  })
})
