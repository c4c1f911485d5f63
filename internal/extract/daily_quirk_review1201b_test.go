package extract

import (
	"runtime/debug"
	"testing"
)

// TestReview1201b_RuleAfterQuirkWithKelvinSign: ruleAfter finds the quirk
// in the lower-cased message but steps past it by the length of the quirk
// as written; "K" (U+212A, the Kelvin sign, 3 bytes) lower-cases to "k"
// (1 byte), so a quirk that ends the message sends the slice past its end.
func TestReview1201b_RuleAfterQuirkWithKelvinSign(t *testing.T) {
	utcLocal(t)
	defer func() {
		if r := recover(); r != nil {
			t.Log(string(debug.Stack()))
			t.Errorf("DailySummary panicked: %v", r)
		}
	}()
	DailySummary(DayInput{Date: "2026-11-25", Projects: []string{"memdir"}, Sessions: []DaySession{convo("memdir", "s1",
		"user: Always run make lint before committing. The dates in the \u212Aafka export are UTC.")}})
}
