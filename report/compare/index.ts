/**
 * The comparison of certificates (`dsh-kit compare`): the model and its page.
 * @module
 */
export { compareCertificates, CompareError, readCertificate } from './model.js'
export type { CompareCell, CompareColumn, CompareGroup, CompareRow, Comparison } from './model.js'
export { cellAnchor, renderComparisonHtml } from './html.js'
