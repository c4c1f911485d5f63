package memdir_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
)

// TestParseType_DidYouMean: a misspelt type is answered with the type meant.
func TestParseType_DidYouMean(t *testing.T) {
	for in, want := range map[string]string{
		"feeback": "did you mean feedback?", "Feedbak": "did you mean feedback?", "proj": "did you mean project?",
		"refrence": "did you mean reference?", "usr": "did you mean user?", "banana": "", "x": "",
	} {
		_, err := memdir.ParseType(in)
		if err == nil {
			t.Fatalf("%q: no error", in)
		}
		if got := err.Error(); want == "" && strings.Contains(got, "did you mean") || want != "" && !strings.HasSuffix(got, want) {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// TestSave_TypeChangeWarns: saving a name under another type says so.
func TestSave_TypeChangeWarns(t *testing.T) {
	st, err := memdir.Open(t.TempDir(), memdir.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m := memdir.Memory{Name: "Deploys", Description: "on fridays", Type: memdir.TypeUser, Body: "Fridays.\n"}
	if _, err := st.Save(ctx, m, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	same, err := st.Save(ctx, m, memdir.SaveOptions{})
	if err != nil || slices.ContainsFunc(same.Warnings, func(w string) bool { return strings.Contains(w, "type") }) {
		t.Fatalf("same type: %v %q", err, same.Warnings)
	}
	m.Type = memdir.TypeProject
	res, err := st.Save(ctx, m, memdir.SaveOptions{})
	if err != nil || !slices.Contains(res.Warnings, "deploys.md changed its type from user to project") {
		t.Fatalf("type change: %v %q", err, res.Warnings)
	}
}
