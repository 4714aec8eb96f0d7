// A program file for `dsh-kit run`: the shrunk program a report printed (here: mutant A6's
// AGENT-REGISTRY-LIFECYCLE 79, an agent/disposed for an agent whose announcement never began),
// pasted after `export default`, with the builders it uses imported from the kit.
//
//   npx dsh-kit run scenarios/examples/owner-unload-in-session-created.mjs --adapter conformance/mutants/a6-unannounced-disposed-edge.ts   # exit 1
//   npx dsh-kit run scenarios/examples/owner-unload-in-session-created.mjs                                                              # exit 0
import { act, actor, create, on, program, unloadOwner } from 'dsh-lifecycle-kit/scenarios'

export default program([
  actor('a1', create('s1')),
], {
  listeners: [
    on('session/created', act(unloadOwner('a1'))),
  ],
}, 'owner unload in session/created')
