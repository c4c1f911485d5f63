package hooks

import (
	"fmt"
	"strings"
	"testing"
)

// TestUserSection: the global index's memory lines, within UserLines and
// UserBytes, then how many were left out; none for an index that lists
// none.
func TestUserSection(t *testing.T) {
	if got := UserSection("/h/MEMORY.md", "# Memory index\n\nnothing yet\n"); got != "" {
		t.Fatalf("an index without memory lines: %q", got)
	}
	var idx strings.Builder
	for i := range UserLines + 5 {
		fmt.Fprintf(&idx, "- [Fact %d](fact-%d.md) — about the user\n", i, i)
	}
	got := UserSection("/h/MEMORY.md", idx.String())
	if n := strings.Count(got, "\n- [Fact "); n != UserLines {
		t.Fatalf("%d lines shown, want %d:\n%s", n, UserLines, got)
	}
	if !strings.HasSuffix(got, "… and 5 more: `memdir --global list` lists them all.") || !strings.Contains(got, "/h/MEMORY.md") {
		t.Fatalf("the tail or the path is missing:\n%s", got)
	}
	long := strings.Repeat("- [Long](long.md) — "+strings.Repeat("x", 900)+"\n", 10)
	if got := UserSection("/h/MEMORY.md", long); len(got) > UserBytes+200 || !strings.Contains(got, "more: `memdir --global list`") {
		t.Fatalf("the byte cap: %d bytes\n%.300s", len(got), got)
	}
}
