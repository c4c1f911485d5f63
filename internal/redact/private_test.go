package redact

import (
	"strings"
	"testing"
)

func TestPrivate(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		n        int
	}{
		{"nothing here", "nothing here", 0},
		{"my salary is <private>95k</private>, fyi", "my salary is [private], fyi", 1},
		{"<PRIVATE>a\nb</Private> and <private>c</private>", "[private] and [private]", 2},
		{"keep <private>unclosed\nall of this", "keep [private]", 1},
		{"a </private> stray close stays", "a </private> stray close stays", 0},
		{"<privatex>not a tag</privatex>", "<privatex>not a tag</privatex>", 0},
		{"<private></private><private>x</private>", "[private][private]", 2},
		{"ünï <private>ç</private> ü", "ünï [private] ü", 1},
		{"<privat", "<privat", 0},
	} {
		got, n := Private(tc.in)
		if got != tc.want || n != tc.n {
			t.Errorf("Private(%q) = %q, %d; want %q, %d", tc.in, got, n, tc.want, tc.n)
		}
		if again, m := Private(got); again != got || m != 0 {
			t.Errorf("Private is not idempotent on %q", got)
		}
	}
	// String removes private blocks too (the store, models), and counts them.
	out, found := String("deploy key is <private>hunter2 at home</private> ok")
	if strings.Contains(out, "hunter2") || len(found) != 1 || found[0].Kind != "private" {
		t.Fatalf("String = %q, %+v", out, found)
	}
}

func FuzzPrivate(f *testing.F) {
	for _, s := range []string{"a <private>b</private> c", "<PRIVATE>", "x</private>y<private>z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, _ := Private(s)
		if indexFold(got, "<private>", 0) >= 0 {
			t.Fatalf("an opening tag survived in %q", got)
		}
	})
}
