// Command memdir is long-term memory for AI coding agents: plain markdown
// files, file-compatible with Claude Code's own memory folders.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"
)

// Exit codes. Never 2: a hook runner reads 2 as "block the agent".
const (
	exitOK          = 0
	exitError       = 1
	exitInterrupted = 130
)

// interruptGrace is how long an interrupted run has to stop by itself.
const interruptGrace = 3 * time.Second

func main() {
	// A panic, or a fault on a mapped file cut short under us, would end
	// the process with status 2, which a hook runner reads as "block":
	// report it and exit 1 instead.
	debug.SetPanicOnFault(true)
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "memdir: internal error: %v\n%s", r, debug.Stack())
			os.Exit(exitError)
		}
	}()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// NotifyContext takes over SIGINT and SIGTERM, so a run blocked where
	// it does not look at ctx (a system call) would ignore them for good:
	// past interruptGrace the process ends anyway, and a second signal
	// ends it at once (stop restores the default action).
	go func() {
		<-ctx.Done()
		stop()
		time.Sleep(interruptGrace)
		fmt.Fprintln(os.Stderr, "memdir: interrupted (did not stop in time)")
		os.Exit(exitInterrupted)
	}()
	cwd, _ := os.Getwd()
	err := run(ctx, os.Args[1:], sys{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		getenv: os.Getenv, cwd: cwd,
	})
	code := exitCode(ctx, err, os.Stderr)
	stop()
	os.Exit(code)
}

// exitCode reports err on stderr as "memdir: error: …" with its hint and maps
// it to the exit code, in this one place.
func exitCode(ctx context.Context, err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	if errors.Is(err, errSilent) {
		return exitError
	}
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "memdir: interrupted")
		return exitInterrupted
	}
	fmt.Fprintf(stderr, "memdir: error: %v\n", err)
	if h := hintFor(err); h != "" {
		fmt.Fprintf(stderr, "memdir: hint: %s\n", h)
	}
	return exitError
}
