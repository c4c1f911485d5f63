package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// InputWait is how long a hook waits for its caller to close stdin. A
// caller that never does would otherwise keep the hook, and the agent
// waiting on it, until the hook runner's own timeout.
const InputWait = 2 * time.Second

// readInput reads r to its end, up to MaxInput+1 bytes, for at most wait.
// Past wait, what arrived is used if it is one whole JSON object, and
// refused otherwise (the hook then fails open). The reading goroutine is
// left blocked on a stdin that never ends; the process ends soon after.
func readInput(ctx context.Context, r io.Reader, wait time.Duration) ([]byte, error) {
	var (
		mu       sync.Mutex
		buf      []byte
		rerr     error
		panicked any
	)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil { // a nil reader: re-raised below
				mu.Lock()
				panicked = p
				mu.Unlock()
			}
		}()
		chunk := make([]byte, 64<<10)
		for {
			n, err := r.Read(chunk)
			mu.Lock()
			buf = append(buf, chunk[:n]...)
			over := len(buf) > MaxInput
			if err != nil && err != io.EOF {
				rerr = err
			}
			mu.Unlock()
			if err != nil || over {
				return
			}
		}
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	ended := false
	select {
	case <-done:
		ended = true
	case <-timer.C:
	case <-ctx.Done():
	}
	mu.Lock()
	defer mu.Unlock()
	if panicked != nil {
		panic(panicked)
	}
	out := bytes.Clone(buf)
	if ended || len(out) > MaxInput {
		return out, rerr
	}
	if t := bytes.TrimSpace(out); len(t) > 0 && t[0] == '{' && json.Valid(t) {
		return out, nil // a whole object: the caller only forgot to close stdin
	}
	return nil, fmt.Errorf("hook input did not end within %s (%d bytes arrived, not a whole JSON object)", wait, len(out))
}
