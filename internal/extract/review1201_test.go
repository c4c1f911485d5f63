package extract

import (
	"strings"
	"testing"
	"time"
)

// 14. "Oct 01:00" not a day: any ':' after the day now blocks the date, so
// "Due Oct 15: …" and "Cutover on Oct 3: …" are no longer dated.
func TestReview1201_MonthDayBeforeColon(t *testing.T) {
	at := time.Date(2026, 9, 20, 10, 0, 0, 0, time.UTC)
	for s, want := range map[string]string{
		"Due Oct 15: the SOC2 evidence pack goes to the auditors.": "2026-10-15",
		"Cutover on Oct 3: DNS flips at 02:00.":                    "2026-10-03",
	} {
		if got, _ := AbsoluteDates(s, at); !strings.Contains(got, want) {
			t.Errorf("%q -> %q, want %s", s, got, want)
		}
	}
}
