// AGENT-TEARDOWN-TEST 107 (§5.1 step 4, §7.2): a teardown requested from an observer of the first
// turn's `turn/end` while a second followup is pending must not let the driver open that next turn.
import { act, actor, create, dispose, followup, on, program } from 'dsh-lifecycle-kit/scenarios'

export default program([
  actor('a1', create('s1'), followup('s1', 'one'), followup('s1', 'two')),
], {
  listeners: [on('session/event', act(dispose('s1')), { session: 's1', eventType: 'turn/end' })],
}, 'dispose from a turn/end observer with a followup pending')
