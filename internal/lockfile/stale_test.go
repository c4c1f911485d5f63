//go:build unix

package lockfile_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/lockfile"
)

// A busy lock's holder line is stale when it names a dead PID on this
// host, and the holder is hung when it has held the lock past the bound.
func TestLockedErrorStale(t *testing.T) {
	host, _ := os.Hostname()
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Skip(err)
	}
	now := time.Now()
	dead := &lockfile.LockedError{PID: c.Process.Pid, Host: host, Since: now}
	if why := dead.Stale(time.Minute, now); !strings.Contains(why, "not running") {
		t.Errorf("dead PID: %q", why)
	}
	live := &lockfile.LockedError{PID: os.Getpid(), Host: host, Since: now.Add(-time.Hour)}
	if why := live.Stale(time.Minute, now); !strings.Contains(why, "hung") {
		t.Errorf("past the bound: %q", why)
	}
	if why := live.Stale(2*time.Hour, now); why != "" {
		t.Errorf("within the bound: %q", why)
	}
	other := &lockfile.LockedError{PID: c.Process.Pid, Host: "elsewhere", Since: now}
	if why := other.Stale(time.Minute, now); why != "" {
		t.Errorf("another host's PID: %q", why)
	}
}
