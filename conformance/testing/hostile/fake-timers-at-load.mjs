// A correct factory whose module installs fake timers at load (as a test helper library might).
import FakeTimers from '@sinonjs/fake-timers'
FakeTimers.install()
export { REFERENCE_ADAPTER as default } from 'dsh-lifecycle-kit/conformance'
