/**
 * The help texts: one per command (`dsh-kit <command> --help`) and the overview (`dsh-kit --help`).
 * @module
 */
import { EXIT_MEANINGS } from './exit-codes.js'

/** Per-command usage. */
export const COMMAND_USAGE: Readonly<Record<string, string>> = {
  certify: `dsh-kit certify [--adapter <module>] [--profile quick|thorough] [--seed N] [--only "<GROUP> <n>"]...
                [--workers N] [--timeout <duration>] [--case-timeout <duration>] [--fail-fast]
                [--out <dir>] [--json <file>] [--reporter json|junit[=<file>]]... [--html <file>] [--timelines] [--no-shrink]
                [--baseline <file>] [--write-baseline <file>] [--badge <file.svg>]
  certify an AgentFactory adapter (the built-in reference factory by default) clause by clause.
  The verdict counts the MUST clauses (each clause's tier: MUST, SHOULD, or a divergence the contract
  records): exit 0 only if none fails and none is left unchecked. --baseline <file> makes the failures
  (and unchecked clauses, with their reason) it lists known: exit 0 exactly when what fails is what it
  lists; a new failure, or a listed one that now passes, exits 1 naming it. --write-baseline <file>
  writes the baseline of this certification (keeping the reasons of the file it rewrites).
  --badge writes a shields-style SVG ("dsh-kit 0.1.0 | 179/179", "162/179 · 16 known").
  Directed cases and simulated runs run in --workers worker threads (default: every core), each
  watched: a case or run that hangs, livelocks or exhausts memory is charged to its clause.
  --timeout bounds the whole certification (incomplete: exit 2); --case-timeout one case or run (10s).
  A failing clause's simulated counterexample is shrunk (the shrunk program is printed first);
  --no-shrink reports the runs as found. --html writes the certificate as one self-contained page
  (every clause, and each failure's shrunk program, replay command and swim-lane timeline).`,
  fuzz: `dsh-kit fuzz [--adapter <module>] [--runs N | --time <duration>] [--seed S] [--strategy random|pct|dfs|portfolio]
             [--scenario NAME] [--shard i/n] [--out <dir>] [--json <file>] [--reporter json|junit[=<file>]]...
             [--keep-going] [--no-shrink] [--guidance on|off] [--no-scenario-mix] [--no-interaction-mix]
             [--interaction] [--checkpoint <file>] [--differential] [--no-baseline] [--no-timelines] [--workers N]
             [--recycle-after N] [--baseline <file>]
  run random programs (or one named scenario) under many schedules with every checker on
  (default --runs 100, or 500 for a scenario). Random programs are guided by state coverage (default
  --guidance on): programs whose runs reached abstract transitions of the runtime no earlier run
  reached are kept and mutated; --no-scenario-mix leaves the named scenarios out of the mix. One seed
  in 16 also runs a program of the interaction suite (small programs of one session: every trigger with
  every action, under every schedule of up to 2 preemptions); --no-interaction-mix leaves it out, and
  --interaction runs the suite alone (it stops when explored: shardable, with an ETA, and resumable
  from --checkpoint <file>, which --guidance off campaigns take too). The report gives the transitions
  covered, their growth and the interaction coverage (2- and 3-way). A failure is shrunk, saved as a run file and printed
  with its replay command; each failure is cross-checked on the reference factory, and
  --differential does not count violations the reference shows too. Runs go to --workers watched
  worker threads (default: every core; the findings of a --runs budget do not depend on it).
  --recycle-after N replaces a worker by a fresh thread after N seeds (0: never; default: what the
  adapter's recycleAfter asks, else never), for a runtime that keeps memory per run in its process;
  the report is the same with or without it, and each replacement pays a worker's start-up again.
  Ctrl-C prints the partial summary and writes --json before exiting 130. --baseline <file> (certify's
  baseline file) makes a violation of a clause it lists known: reported, not failing the campaign
  (--no-baseline is another thing: it skips the cross-check of each failure on the reference factory).`,
  merge: `dsh-kit merge <report.json>... [--json <file>] [--reporter json|junit[=<file>]]... [--no-timelines]
  merge the --json reports of one campaign's shards (fuzz --shard i/n, one CI job each): totals
  summed, goals and coverage unioned, findings deduplicated by clause and shrunk program.`,
  run: `dsh-kit run <program.mjs|program.json> [--adapter <module>] [--runs N] [--seed S]
            [--strategy random|pct|dfs|portfolio] [--out <dir>] [--json <file>] [--keep-going]
            [--no-shrink] [--no-timelines] [--baseline <file>]
  run a program you wrote under many schedules (default --runs 100) with every checker on: a .mjs
  module whose default export is built with the builders reports print (import { program, actor,
  create, ... } from 'dsh-lifecycle-kit/scenarios'), a JSON program, or a run file's program.
  A violation is shrunk, saved as a run file and printed with its replay command; exit 1.
  A program that does not validate is exit 65, naming the field. --baseline <file>: a violation of a
  clause the baseline lists is known and does not fail the run.`,
  replay: `dsh-kit replay <run-file> [--adapter <module>] [--force] [--timeline]
  replay a saved run from its decision log against the adapter it recorded and check it again;
  --adapter must name that adapter unless --force.`,
  explain: `dsh-kit explain <run-file> [--adapter <module>] [--force] [--html <out.html>] [--flat] [--no-marks]
  print the run's timeline, one line per event with a column per actor, and the violations the
  run shows; --html writes a self-contained swim-lane page. explain is a viewer: it exits 0 once it
  drew the timeline, even of a violating run; gate on replay, which exits 1 while the run violates.`,
  compare: `dsh-kit compare <certificate.json>... [--html <file>] [--json <file>]
  the certificates of several implementations (each from certify --json) side by side: a clause ×
  implementation matrix, the clauses where they differ first, per-group totals at the top, and each
  failing cell linked to its shrunk program and replay command. A viewer: exit 0 once written.`,
  init: `dsh-kit init [--from-example] [--force] [--dir <path>]
  start a certification in your project: writes dsh-kit.adapter.mjs (the adapter, naming the factory
  module to fill in), dsh-kit.conformance.test.mjs (the vitest suite) and .github/workflows/dsh-kit.yml
  (certify against dsh-kit.baseline.json on every push, a nightly fuzz matrix merged into one verdict).
  --from-example also copies the kit's example factory, so certify passes at once. Never overwrites
  a file without --force; prints what to do next.`,
  list: `dsh-kit list [--clause "<GROUP> <n>" | <n>]...
  print the clause groups and clauses, the named scenarios and the mutants; --clause prints one
  clause's text, the contract sections it rests on (in the kit's words) and how the suite checks it
  (every clause is in docs/clauses.md, shipped with the package).`,
}

/** The overview. */
export function usage(): string {
  const codes = EXIT_MEANINGS.map(([code, meaning]) => `  ${String(code).padStart(3)}  ${meaning}`).join('\n')
  return `usage: dsh-kit <command> [options]    (dsh-kit <command> --help, dsh-kit --version)

commands:
${Object.values(COMMAND_USAGE).map((u) => `  ${u.replace(/\n/g, '\n  ')}`).join('\n\n')}

exit codes:
${codes}
`
}
