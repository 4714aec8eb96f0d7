import { describe, it } from 'vitest'
import { REFERENCE_ADAPTER } from './adapter.js'
import { defineConformanceSuite } from './define-suite.js'

// The reference factory passes every clause of the quick profile.
defineConformanceSuite(REFERENCE_ADAPTER, { describe, it, profile: 'quick', outDir: '.dsh-kit/test-failures' })
