package main

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/workspace"
)

// progressMin is how much reading makes a progress line worth showing.
const progressMin = 256 << 20

// progressLine shows, on a terminal's stderr, how far a long read is:
// "memdir: reading transcripts: 312/432 files, 700/1000 MB". It draws every
// 200 ms and erases itself when stopped. Elsewhere it does nothing.
type progressLine struct {
	w           io.Writer
	what        string
	files       int
	total       int64
	doneFiles   atomic.Int64
	doneBytes   atomic.Int64
	quit        chan struct{}
	wg          sync.WaitGroup
	enabled     bool
	lastWritten int
}

func (a *app) progress(what string, files []sessions.File) *progressLine {
	p := &progressLine{w: a.stderr, what: what, files: len(files), quit: make(chan struct{})}
	for _, f := range files {
		p.total += f.Size
	}
	if p.total < progressMin || !isTerminal(a.stderr) {
		return p
	}
	p.enabled = true
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.quit:
				fmt.Fprintf(p.w, "\r%*s\r", p.lastWritten, "")
				return
			case <-t.C:
				n, _ := fmt.Fprintf(p.w, "\rmemdir: %s: %d/%d files, %d/%d MB", p.what,
					p.doneFiles.Load(), p.files, p.doneBytes.Load()/1e6, p.total/1e6)
				p.lastWritten = max(p.lastWritten, n)
			}
		}
	}()
	return p
}

// add counts one file of size bytes done. Safe for concurrent use.
func (p *progressLine) add(size int64) {
	p.doneFiles.Add(1)
	p.doneBytes.Add(size)
}

// stop erases the line.
func (p *progressLine) stop() {
	if p.enabled {
		close(p.quit)
		p.wg.Wait()
	}
}

// report is how the workspace's use cases warn and show progress here.
func (a *app) report() workspace.Report {
	return workspace.Report{
		Warn: func(msg string) { a.warnf("%s", msg) },
		Progress: func(what string, files []sessions.File) (func(int64), func()) {
			p := a.progress(what, files)
			return p.add, p.stop
		},
	}
}
