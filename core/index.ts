/**
 * The reference core: a small, faithful implementation of the agent lifecycle contract.
 * `contract.ts` holds every type an alternative factory implements; the rest is the reference.
 */
export * from './contract.js'
export { createRoot } from './root.js'
export type { Root, RootOptions } from './root.js'
export { ReferenceFactory, installReferenceFactory, fiberDying, creationAbortReason } from './factory/reference-factory.js'
export type { InstalledFactory } from './factory/reference-factory.js'
export { Transaction } from './factory/transaction.js'
export type { TeardownTrigger } from './factory/transaction.js'
export { ReferenceAgent, validateAgentOptions } from './agent.js'
export { InboxImpl, normalizeSplice } from './inbox.js'
export { SessionImpl } from './session.js'
export { SessionStoreImpl } from './session-store.js'
export { AgentRegistryImpl } from './registry.js'
export { InitiatorScope } from './initiator.js'
export { InMemoryPersistence } from './persistence.js'
export type { PersistedSession, InMemoryPersistenceOptions } from './persistence.js'
export { ScriptedModel, script } from './scripted-model.js'
export type { ScriptEntry } from './scripted-model.js'
export { createUserMessage } from './messages.js'
export type { UserMessageInput } from './messages.js'
export { snapshotJson } from './lossless-json.js'
