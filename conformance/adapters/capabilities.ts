/**
 * Optional capabilities of a process: services of the process port (`core/process.ts`) a foreign
 * runtime may or may not honour. A directed case that needs one runs only when the adapter's
 * `supports` manifest declares it; otherwise its clause is reported unchecked with the reason
 * ("needs capability …"). The kit's own process honours every one, so a factory adapter has them all.
 * @module
 */

/** Every capability, with what a process must do to declare it. */
export const CAPABILITIES = {
  scopeMinting: 'calls services.scopeCreated(fiber, key) synchronously inside each scope it mints (an agent\'s scope is keyed by the agent), so a case can land an abort or an owner unload there',
  preparations: 'calls services.prepared(id) when a persistence load hands out a preparation (and the function it returns when that preparation is released), and awaits services.afterLoad(id) before handing it over',
  noPersistence: 'boots with no session persistence configured when services.persistence is false',
  agentEvents: 'has handle.agentEvents(ctx, agent).emit(name, payload): dispatches an agent event through ctx carried with agent\'s scope key (the agentEvents helper §9 18 names)',
  effectLabels: 'its contexts\' fibers expose effectLabels() (§2, the labels of the effects a fiber holds), so a case can see a lifecycle effect left on an owner fiber',
  crash: 'has handle.crash(): the process dies without shutdown (no teardown, no disposal event), nothing reaches services.disk afterwards, and what it appended before stays there, so a program can crash it mid-turn and resume from the disk',
  warnings: 'reports every contained failure (a throwing or rejecting listener, a failing disposer) through services.warn, with the thrown value as its error or its message in the text',
} as const

/** A capability's name. */
export type Capability = keyof typeof CAPABILITIES

/** Capability names, in a stable order. */
export const CAPABILITY_NAMES = Object.keys(CAPABILITIES) as Capability[]

/** The capability flags of a `supports` manifest. */
export type Capabilities = { readonly [K in Capability]: boolean }
