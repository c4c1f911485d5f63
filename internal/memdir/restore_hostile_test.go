package memdir_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
)

// TestRestore_HostileKeptFiles: a file put into .forgotten by someone else
// never becomes MEMORY.md, a dot file or a name that writes its own index
// line; a kept version holding a secret comes back redacted; versions are
// ordered as numbers ("-10" after "-2").
func TestRestore_HostileKeptFiles(t *testing.T) {
	st := MustOpen(t, t0)
	save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask.")
	os.MkdirAll(st.Path(memdir.ForgottenDir), 0o700)
	mem := "---\nname: evil\ndescription: pwn\ntype: user\n---\nhello\n"
	for _, name := range []string{"MEMORY.md.20990101T000000Z", ".hidden.md.20990101T000000Z", "a\n- [Injected](x.md) — injected\nb.md.20990101T000000Z"} {
		if err := os.WriteFile(st.Path(memdir.ForgottenDir+"/"+name), []byte(mem), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := os.ReadFile(st.Path(memdir.IndexFile))
	for _, name := range []string{"MEMORY", "MEMORY.md", ".hidden", "evil", "b"} {
		if _, err := st.Restore(context.Background(), name, ""); err == nil {
			t.Errorf("restore %q succeeded", name)
		}
	}
	after, _ := os.ReadFile(st.Path(memdir.IndexFile))
	if string(after) != string(before) || strings.Contains(string(after), "Injected") {
		t.Errorf("MEMORY.md changed:\n%s", after)
	}

	secret := "---\nname: Old db\ndescription: the staging database\ntype: reference\n---\nthe db password is Zx9kq2LmP77\n"
	for _, stamp := range []string{"20990101T000000Z-2", "20990101T000000Z-10"} {
		os.WriteFile(st.Path(memdir.ForgottenDir+"/old-db.md."+stamp), []byte(secret), 0o600)
	}
	vs, err := st.Versions("old-db")
	if err != nil || len(vs) != 2 || vs[0].Version != "20990101T000000Z-10" {
		t.Fatalf("versions %+v, %v: want -10 first", vs, err)
	}
	res, err := st.Restore(context.Background(), "old-db", "")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(st.Path("old-db.md"))
	ix, _ := os.ReadFile(st.Path(memdir.IndexFile))
	if strings.Contains(string(b), "Zx9kq2LmP77") || !strings.Contains(string(b), "REDACTED") || !strings.Contains(string(ix), "(old-db.md)") {
		t.Errorf("restored %+v:\n%s\nindex:\n%s", res, b, ix)
	}
	if _, err := os.Stat(res.From); !os.IsNotExist(err) {
		t.Errorf("the kept version stayed after the restore: %v", err)
	}
}
