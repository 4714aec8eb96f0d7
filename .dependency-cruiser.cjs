/**
 * The import rules of the kit's layout (README "Layout"), checked by `npm run layout` and by
 * `layout.test.ts` in `npm test`: no import circle (type-only imports included), and imports point
 * one way, core <- sim <- conformance <- scenarios <- report <- cli. bench may import anything;
 * examples and adapters reach the kit only through its package entry points, as a user would.
 * TypeScript 7 has no JavaScript compiler API, so dependency-cruiser parses with swc.
 */
const LAYERS = ['core', 'sim', 'conformance', 'scenarios', 'report', 'cli']

/** A layer may import its own folder and the layers below it. */
const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `${layer}-imports-no-layer-above`,
  comment: `${layer}/ may import only ${LAYERS.slice(0, i + 1).join(', ')} (imports point core <- sim <- conformance <- scenarios <- report <- cli)`,
  severity: 'error',
  from: { path: `^${layer}/` },
  to: { path: `^(${LAYERS.slice(i + 1).join('|')}|bench|examples|adapters)/` },
}))

// The second gallery's mutants (conformance/mutants/from-scratch/) are adapters of the from-scratch
// example: each subclasses one of its classes, so they, and only they, import that example (and the
// kit only by its package name, as the example does).
upward[2].to.path = '^(scenarios|report|cli|bench|adapters)/'
const exampleMutants = {
  name: 'only-the-example-gallery-imports-the-example',
  severity: 'error',
  from: { path: '^conformance/', pathNot: '^conformance/mutants/from-scratch/' },
  to: { path: '^examples/' },
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'an import circle (type-only imports count): move what the files share down a level',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
    exampleMutants,
    {
      name: 'cli-imports-no-bench-or-examples',
      severity: 'error',
      from: { path: '^cli/' },
      to: { path: '^(bench|examples|adapters)/' },
    },
    {
      name: 'examples-use-the-package-entry-points',
      comment: 'an example imports the kit by its package name (dsh-lifecycle-kit, …/conformance), never a file inside it',
      severity: 'error',
      from: { path: '^examples/' },
      to: { path: '^(core|sim|conformance|scenarios|report|cli|bench)/' },
    },
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
  },
}
