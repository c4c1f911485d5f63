package memdir

import "testing"

// BatchCrashForTest makes every Apply of the test stop at stage
// ("journaled", "committed", "applied") as a process killed there would.
// Tests that use it do not run in parallel.
func BatchCrashForTest(tb testing.TB, stage string) {
	testOnlyBatchCrash = func(s string) bool { return s == stage }
	tb.Cleanup(func() { testOnlyBatchCrash = nil })
}
