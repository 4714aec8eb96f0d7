/**
 * Every way the kit shows a result, as data in, text out: the certificate as text
 * (`formatReport`), a campaign's report (`formatCampaign`), JUnit XML, the certificate page and the
 * swim-lane timelines. The public face of `report/` (`dsh-lifecycle-kit/report`); only the CLI
 * writes the files.
 * @module
 */
export { formatBaselineSummary, formatClauseTable, formatReport, formatTierTotals } from './certify-text.js'
export { formatCampaign, formatCampaignFailure, formatSizes, formatStateCoverage } from './campaign-text.js'
export type { FormatCampaignOptions } from './campaign-text.js'
export { campaignJUnit, certifyJUnit } from './junit.js'
export { formatInteractionCoverage, interactionStatement } from './interaction-text.js'
export * as timeline from './timeline/index.js'
export * as certificate from './certificate/index.js'
export * as compare from './compare/index.js'
export { certificateBadge, renderBadge } from './badge.js'
export type { Badge } from './badge.js'
