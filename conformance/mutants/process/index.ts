/**
 * The process-mutant gallery: the kit's own process with one method of its store, registry,
 * initiator scope, sessions or inboxes changed (`process-mutant.ts`), each reproducing a catalog
 * entry or a clause of the kit-level groups. Each module's default export is a process adapter
 * (`npx dsh-kit certify --adapter conformance/mutants/process/<file>`); the meta-test
 * (`process-mutants.test.ts`) requires `certify --profile quick` to catch every one, naming a clause.
 * @module
 */
import type { Adapter } from '../../adapters/adapter.js'
import p01 from './p01-enter-announces.js'
import p02 from './p02-enter-skips-id-check.js'
import p03 from './p03-announce-twice.js'
import p04 from './p04-detach-by-id.js'
import p05 from './p05-unannounced-disposed.js'
import p06 from './p06-list-by-id.js'
import p07 from './p07-owner-owns-itself.js'
import p08 from './p08-store-announce-twice.js'
import p09 from './p09-store-keeps-detached.js'
import p10 from './p10-initiator-wraps-promise.js'
import p11 from './p11-initiator-no-drain.js'
import p12 from './p12-initiator-admits-while-closing.js'
import p13 from './p13-session-drops-non-json.js'
import p14 from './p14-inbox-clear-next-turn-first.js'
import p15 from './p15-inbox-replace-steals-pending.js'
import p16 from './p16-inbox-accepts-pending-id.js'
import p17 from './p17-resume-drops-cwd.js'
import p18 from './p18-initiator-drain-waits-on-itself.js'
import p19 from './p19-initiator-global.js'
import p20 from './p20-deferred-detach-lost.js'
import p21 from './p21-resume-cuts-interrupted-turn.js'
import p22 from './p22-enter-swallows-live-id.js'
import p23 from './p23-announce-stale-silently.js'
import p24 from './p24-store-flush-fails-fast.js'
import p25 from './p25-store-flush-always-participates.js'

/** One process mutant: its file and adapter. */
export interface ProcessMutant {
  readonly file: string
  readonly adapter: Adapter
}

/** Every process mutant, in file order. */
export const PROCESS_MUTANTS: readonly ProcessMutant[] = [
  { file: 'p01-enter-announces.ts', adapter: p01 },
  { file: 'p02-enter-skips-id-check.ts', adapter: p02 },
  { file: 'p03-announce-twice.ts', adapter: p03 },
  { file: 'p04-detach-by-id.ts', adapter: p04 },
  { file: 'p05-unannounced-disposed.ts', adapter: p05 },
  { file: 'p06-list-by-id.ts', adapter: p06 },
  { file: 'p07-owner-owns-itself.ts', adapter: p07 },
  { file: 'p08-store-announce-twice.ts', adapter: p08 },
  { file: 'p09-store-keeps-detached.ts', adapter: p09 },
  { file: 'p10-initiator-wraps-promise.ts', adapter: p10 },
  { file: 'p11-initiator-no-drain.ts', adapter: p11 },
  { file: 'p12-initiator-admits-while-closing.ts', adapter: p12 },
  { file: 'p13-session-drops-non-json.ts', adapter: p13 },
  { file: 'p14-inbox-clear-next-turn-first.ts', adapter: p14 },
  { file: 'p15-inbox-replace-steals-pending.ts', adapter: p15 },
  { file: 'p16-inbox-accepts-pending-id.ts', adapter: p16 },
  { file: 'p17-resume-drops-cwd.ts', adapter: p17 },
  { file: 'p18-initiator-drain-waits-on-itself.ts', adapter: p18 },
  { file: 'p19-initiator-global.ts', adapter: p19 },
  { file: 'p20-deferred-detach-lost.ts', adapter: p20 },
  { file: 'p21-resume-cuts-interrupted-turn.ts', adapter: p21 },
  { file: 'p22-enter-swallows-live-id.ts', adapter: p22 },
  { file: 'p23-announce-stale-silently.ts', adapter: p23 },
  { file: 'p24-store-flush-fails-fast.ts', adapter: p24 },
  { file: 'p25-store-flush-always-participates.ts', adapter: p25 },
]
