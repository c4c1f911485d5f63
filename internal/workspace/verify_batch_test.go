package workspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/memdir/memdir/internal/claims"
	"github.com/memdir/memdir/internal/testenv"
)

// TestPrefetch: one search per kind decides every symbol and flag, the
// ones a longer match overlaps included; check then runs no search (the
// project is gone when it runs).
func TestPrefetch(t *testing.T) {
	const src = "package x\n\n// SaveAll then Save; run ./deploy.sh --force-with-lease, or --dry-run.\nfunc SaveAll() { Save() }\n"
	cls := []claims.Claim{
		{Kind: claims.Symbol, Text: "SaveAll"}, {Kind: claims.Symbol, Text: "Store.Save"}, {Kind: claims.Symbol, Text: "Missing()"},
		{Kind: claims.Symbol, Text: "All"}, {Kind: claims.Flag, Text: "--force", Command: "./deploy.sh"},
		{Kind: claims.Flag, Text: "--force-with-lease", Command: "./deploy.sh"}, {Kind: claims.Flag, Text: "--gone", Command: "./deploy.sh"},
		{Kind: claims.Flag, Text: "--dry-run", Command: "./deploy.sh"},
	}
	want := []string{ClaimOK, ClaimOK, ClaimMissing, ClaimMissing, ClaimOK, ClaimOK, ClaimMissing, ClaimOK}
	for _, git := range []bool{true, false} {
		root := filepath.Join(t.TempDir(), "proj")
		if err := os.MkdirAll(root, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "x.go"), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		if git {
			if _, err := exec.LookPath("git"); err != nil {
				testenv.Unavailable(t, "git is not installed")
			}
			cmd := exec.Command("git", "init", "-q")
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git init: %v\n%s", err, out)
			}
		}
		c := newClaimChecker(t.Context(), root, filepath.Join(filepath.Dir(root), "mem"), func(string) string { return "" })
		if c.git != git {
			t.Fatalf("git=%v, want %v", c.git, git)
		}
		c.prefetch(t.Context(), cls)
		if err := os.RemoveAll(root); err != nil {
			t.Fatal(err)
		}
		for i, cl := range cls {
			if r := c.check(t.Context(), cl); r.Status != want[i] {
				t.Errorf("git %v: %s %s: %s (%s), want %s", git, cl.Kind, cl.Text, r.Status, r.Reason, want[i])
			}
		}
	}
}
