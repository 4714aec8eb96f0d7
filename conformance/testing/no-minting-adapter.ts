/**
 * A test fixture: the kit's own process as a process adapter that does not offer the
 * `scopeMinting` capability, so the clause only its directed cases check (§9 59) is unchecked, with
 * the reason. Certified by the kit's own tests (vitest totals, vitest's todo, the CLI's exit 2).
 */
import { KIT_PROCESS_ADAPTER } from '../adapters/kit-process-adapter.js'
import type { Adapter } from '../adapters/adapter.js'

const NO_MINTING: Adapter = { ...KIT_PROCESS_ADAPTER, name: 'kit process without scopeMinting', supports: { ...KIT_PROCESS_ADAPTER.supports, scopeMinting: false } }
export default NO_MINTING
