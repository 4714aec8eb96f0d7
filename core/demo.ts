/**
 * `npm run demo`: drives the reference core through a create, a followup, a same-id race, a
 * rollback and a teardown, and prints the event timeline.
 */
import { createRoot, createUserMessage, installReferenceFactory, ScriptedModel, script } from './index.js'
import type { Context, EventName } from './index.js'

const lines: string[] = []
let clock = 0
let ids = 0
const log = (line: string): void => { lines.push(`${String(lines.length + 1).padStart(3, '0')}  ${line}`) }
const root = createRoot({
  now: () => ++clock,
  newId: (kind) => `${kind}-${++ids}`,
  warn: (message) => log(`warn      ${message}`),
  model: new ScriptedModel([], script.text('hello from the scripted model')),
})
const loop = installReferenceFactory(root.ctx)

const watched: EventName[] = ['session/created', 'agent/created', 'agent/session-start', 'agent/status', 'agent/disposed', 'session/disposed', 'agent/inbox/claimed']
for (const name of watched) {
  root.ctx.on(name, ((payload: any) => {
    const id = payload?.agent?.id ?? payload?.id
    const extra = payload?.status ?? payload?.source ?? (payload?.turn !== undefined ? `turn ${payload.turn}` : '')
    log(`event     ${name.padEnd(22)} ${id} ${extra}`)
  }) as never)
}
root.ctx.on('session/event', (session, event) => log(`append    ${session.id} #${event.seq} ${event.type}`))

/** A setup that awaits, registers a scoped effect (its disposer marks "scope disposed") and commits. */
const setup = (label: string) => async (agentCtx: Context) => {
  log(`setup     ${label} starts`)
  await Promise.resolve()
  agentCtx.effect(() => () => log(`scope     ${label} scope disposed`), 'demo')
  log(`setup     ${label} ends`)
  return { commit: () => log(`commit    ${label}`) }
}

async function main(): Promise<void> {
  log('--- create s1 and send a followup')
  const handle = await root.ctx.agents.create({ sessionId: 's1', setup: setup('s1') })
  handle.agent.followup(createUserMessage({ content: 'hi' }, root.services.newId))
  await handle.agent.whenIdle()

  log('--- two concurrent creates of s2 (same id): exactly one wins')
  const results = await Promise.allSettled([
    root.ctx.agents.create({ sessionId: 's2', setup: setup('s2/a') }),
    root.ctx.agents.create({ sessionId: 's2', setup: setup('s2/b') }),
  ])
  for (const r of results) log(`result    ${r.status === 'fulfilled' ? 'fulfilled' : `rejected: ${(r.reason as Error).message}`}`)

  log('--- create s3 with a throwing agent/created listener: rollback')
  const veto = root.ctx.on('agent/created', ({ agent }) => { if (agent.id === 's3') throw new Error('listener veto') })
  await root.ctx.agents.create({ sessionId: 's3', setup: setup('s3') }).catch((e: Error) => log(`result    rejected: ${e.message}`))
  void veto()

  log('--- teardown: dispose s1 through its handle, then unload the factory (tears down s2)')
  await handle.dispose()
  await loop.unload()
  await root.shutdown()
  log(`--- done: agents=${root.registry.list().length} sessions=${root.store.list().length}`)
}

main().then(() => console.log(lines.join('\n')), (error) => { console.log(lines.join('\n')); console.error(error); process.exitCode = 1 })
