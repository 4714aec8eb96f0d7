/**
 * The certificate page: a report rendered as one self-contained HTML page, with each failure's
 * timeline (`dsh-kit certify --html <file>`).
 * @module
 */
export { failureAnchor, renderCertificateHtml } from './html.js'
export type { CertificatePageOptions } from './html.js'
export type { FailureTimeline } from '../../conformance/certify/failure-timelines.js'
