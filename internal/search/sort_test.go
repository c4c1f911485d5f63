package search_test

import (
	"testing"
	"time"

	"github.com/memdir/memdir/internal/search"
)

// TestSortByTime: results by their message's time, the lines of one
// message in their order.
func TestSortByTime(t *testing.T) {
	at := func(h int) time.Time { return time.Date(2026, 11, 20, h, 0, 0, 0, time.UTC) }
	rs := []search.Result{
		{SessionID: "a", Time: at(12), Text: "3"},
		{SessionID: "z", Time: at(9), Text: "1a"},
		{SessionID: "z", Time: at(9), Text: "1b"},
		{SessionID: "z", Time: at(10), Text: "2"},
	}
	search.SortByTime(rs)
	var got string
	for _, r := range rs {
		got += r.Text + " "
	}
	if got != "1a 1b 2 3 " {
		t.Errorf("order %q", got)
	}
}
