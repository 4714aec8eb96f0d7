import { describe, it } from 'vitest'
import { installReferenceFactory } from '../factory/reference-factory.js'
import { caseTitle, DIRECTED_CASES } from './index.js'
import type { InstallFactory } from './index.js'

const reference: InstallFactory = (ctx) => installReferenceFactory(ctx)

describe('directed cases on the reference factory', () => {
  for (const c of DIRECTED_CASES) it(caseTitle(c), () => c.run(reference))
})
