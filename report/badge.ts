/**
 * A shields-style SVG badge of a certificate (`certify --badge <file.svg>`): "dsh-kit 0.1.0 |
 * 179/179", "162/179 · 16 known" when a baseline made failures known, or the count of what fails
 * the gate. Green when it passed with nothing known, yellow-green with known failures, red when it
 * failed, grey when incomplete. Self-contained (no fonts or images to fetch); text widths are
 * estimated from Verdana's advance widths, as shields.io lays out its badges.
 * @module
 */
import { verdictOf } from '../conformance/certify/failure-text.js'
import { gateOf } from '../conformance/certify/gate.js'
import type { Report } from '../conformance/certify/report.js'
import { esc } from './timeline/html.js'

/** Badge colours (shields.io's names). */
const COLOURS = { brightgreen: '#4c1', yellowgreen: '#a4a61d', red: '#e05d44', lightgrey: '#9f9f9f' } as const

/** What a badge says. */
export interface Badge {
  readonly label: string
  readonly message: string
  readonly color: keyof typeof COLOURS
}

/** The badge of a certificate; `kitVersion` is the kit's package version. */
export function certificateBadge(report: Report, kitVersion: string): Badge {
  const { verdict } = verdictOf(report)
  const gate = gateOf(report)
  const pass = report.clauses.filter((c) => c.status === 'pass').length
  const known = (gate.baseline?.knownFailures.length ?? 0) + (gate.baseline?.knownUnchecked.length ?? 0)
  const failing = gate.newFailures.length + gate.newUnchecked.length + (gate.baseline?.stale.length ?? 0)
  const parts = [`${pass}/${report.clauses.length}`, ...(known ? [`${known} known`] : []), ...(verdict === 'FAILED' && failing ? [`${failing} failing`] : []), ...(verdict === 'INCOMPLETE' ? ['incomplete'] : [])]
  const color = verdict === 'INCOMPLETE' ? 'lightgrey' : verdict === 'FAILED' ? 'red' : known ? 'yellowgreen' : 'brightgreen'
  return { label: `dsh-kit ${kitVersion}`, message: parts.join(' · '), color }
}

/** Verdana 11px advance widths (px) of the characters badges use; others count as 7. */
const WIDTHS: Readonly<Record<string, number>> = {
  ' ': 3.87, '·': 4.36, '/': 4.9, '.': 3.87, '-': 4.99, ',': 3.64, '(': 4.99, ')': 4.99, '@': 10.99,
  ...Object.fromEntries('0123456789'.split('').map((d) => [d, 7])),
  ...Object.fromEntries([...'abcdeghknopqsuvxyz'].map((c) => [c, 6.6])),
  f: 3.87, i: 3.01, j: 3.27, l: 3.01, m: 10.65, r: 4.69, t: 4.33, w: 8.93,
}

function textWidth(text: string): number {
  let w = 0
  for (const ch of text) w += WIDTHS[ch] ?? (ch >= 'A' && ch <= 'Z' ? 7.5 : 7)
  return Math.round(w)
}

/** A badge as a self-contained SVG. */
export function renderBadge(badge: Badge): string {
  const lw = textWidth(badge.label) + 10
  const mw = textWidth(badge.message) + 10
  const w = lw + mw
  const fill = COLOURS[badge.color]
  const label = esc(badge.label)
  const message = esc(badge.message)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${label}: ${message}"><title>${label}: ${message}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${mw}" height="20" fill="${fill}"/><rect width="${w}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="${lw / 2}" y="15" fill="#010101" fill-opacity=".3">${label}</text><text x="${lw / 2}" y="14">${label}</text>
<text x="${lw + mw / 2}" y="15" fill="#010101" fill-opacity=".3">${message}</text><text x="${lw + mw / 2}" y="14">${message}</text>
</g></svg>
`
}
