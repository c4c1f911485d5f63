//go:build !unix

package hooks

import "os/exec"

func detach(cmd *exec.Cmd) {}
