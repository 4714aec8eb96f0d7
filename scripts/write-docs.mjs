// `npm run docs`: regenerate docs/clauses.md from the built kit (see conformance/clauses/clause-doc.ts).
import { writeFileSync } from 'node:fs'
import { renderClauseDoc } from '../dist/conformance/clauses/clause-doc.js'

const target = new URL('../docs/clauses.md', import.meta.url)
writeFileSync(target, renderClauseDoc())
console.log('wrote docs/clauses.md')
