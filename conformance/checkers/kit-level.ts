/**
 * Kit-level clauses checked in simulated runs through the probes the programs opt into:
 * - a re-send of an id already pending (`resend`) is rejected: an accepted one violates §9 120;
 * - the ownership queries agree with the creations after every event (`env.ownership`): a child
 *   created through a live parent is owned by it and not a root (§9 5), no agent owns itself (§9 6).
 * @module
 */
import { OWNERSHIP_MARK } from '../../sim/ownership-probe.js'
import { RESEND_ACCEPTED } from '../../sim/resend.js'
import type { Analysis } from './analysis.js'
import { violation } from './violation.js'
import type { Violation } from './violation.js'

/** Check the re-send and ownership probes of one run. */
export function checkKitLevel(a: Analysis): Violation[] {
  const out: Violation[] = []
  const seen = new Set<string>()
  for (const e of a.entries) {
    if (e.k !== 'mark') continue
    if (e.label.startsWith(`${RESEND_ACCEPTED} `)) {
      out.push(violation('AGENT-INBOX-TEST', 120, `"${e.id ?? '?'}": a message with the id ${e.label.slice(RESEND_ACCEPTED.length + 1)} of an item already pending was accepted (must throw already pending)`, e))
    } else if (e.label.startsWith(`${OWNERSHIP_MARK} `)) {
      const line = e.label.slice(OWNERSHIP_MARK.length + 1)
      if (seen.has(line)) continue
      seen.add(line)
      out.push(violation('AGENT-FACTORY-SEAM', /owns itself/.test(line) ? 6 : 5, line, e))
    }
  }
  return out
}
