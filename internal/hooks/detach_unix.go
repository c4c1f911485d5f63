//go:build unix

package hooks

import (
	"os/exec"
	"syscall"
)

// detach makes cmd outlive the hook that starts it: its own session, so
// the agent's process group signals do not reach it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
