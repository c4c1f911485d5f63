package workspace

import (
	"testing"
	"time"
)

func TestReplacePath(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, old, new, want string }{
		{"Edit src/app.go, then test.", "src/app.go", "src/server.go", "Edit src/server.go, then test."},
		{"Run ./scripts/x.sh now", "scripts/x.sh", "bin/x.sh", "Run ./bin/x.sh now"},
		{"see `src/app.go:12`", "src/app.go", "src/server.go", "see `src/server.go:12`"},
		{"lib/src/app.go and src/app.go.bak stay", "src/app.go", "src/server.go", "lib/src/app.go and src/app.go.bak stay"},
		{"app.go, not src/app.go", "app.go", "server.go", "server.go, not src/app.go"},
	}
	for _, tt := range tests {
		if got := replacePath(tt.in, tt.old, tt.new); got != tt.want {
			t.Errorf("replacePath(%q, %q, %q)=%q, want %q", tt.in, tt.old, tt.new, got, tt.want)
		}
	}
}

func TestStaleMark(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	if got := staleMark("", nil, day); got != "" {
		t.Errorf("staleMark(no reasons)=%q, want empty", got)
	}
	old := "a.go no longer exists (2026-10-01)"
	if got := staleMark(old, []string{"a.go no longer exists"}, day); got != old {
		t.Errorf("staleMark(same reason)=%q, want the old mark %q kept", got, old)
	}
	got := staleMark(old, []string{"a", "b", "c", "d", "e"}, day)
	if want := "a; b; c; and 2 more (2026-11-25)"; got != want {
		t.Errorf("staleMark(five reasons)=%q, want %q", got, want)
	}
}
