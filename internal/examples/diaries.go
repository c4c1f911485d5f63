package examples

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/internal/memdir"
)

// diaryFiles holds task diaries of the example project's earlier tasks:
// one lesson (run the migrations before the integration tests) in three of
// them, in other words each time, and a one-off (a pink button).
//
//go:embed diaries/*.md
var diaryFiles embed.FS

//go:embed transcripts/claude-code-diary.jsonl
var diaryTranscript string

//go:embed project/CLAUDE.md
var claudeMD []byte

// DiarySession is the session id of DiaryTranscript's session.
const DiarySession = "8c2d7e13-4b6a-4f0e-9d51-3a7b2c9e6f18"

// daysAgoRe is an example diary's date: {{DAYS_AGO n}}.
var daysAgoRe = lazyre.New(`\{\{DAYS_AGO (\d+)\}\}`)

// Diaries parses the example diaries, dated n days before now (in now's
// zone) as each file says, oldest first.
func Diaries(now time.Time) ([]diary.Entry, error) {
	files, err := fs.Glob(diaryFiles, "diaries/*.md")
	if err != nil {
		return nil, err
	}
	var out []diary.Entry
	for _, f := range files {
		b, err := fs.ReadFile(diaryFiles, f)
		if err != nil {
			return nil, err
		}
		b = daysAgoRe.ReplaceAllFunc(b, func(m []byte) []byte {
			n, _ := strconv.Atoi(string(daysAgoRe.FindSubmatch(m)[1]))
			return []byte(now.AddDate(0, 0, -n).Format(time.DateOnly))
		})
		e, err := diary.Parse(filepath.Base(f), b)
		if err != nil {
			return nil, fmt.Errorf("bundled example diary: %w", err)
		}
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b diary.Entry) int { return strings.Compare(a.Date, b.Date) })
	return out, nil
}

// DiaryTranscript is a Claude Code session in cwd starting at at: an
// integration test fails on a missing table, the migrations run, the test
// passes.
func DiaryTranscript(cwd string, at time.Time) Transcript {
	return Transcript{Agent: "claude-code", Session: DiarySession, Data: fill(diaryTranscript, cwd, DiarySession, at)}
}

// WriteDiaryTranscript writes DiaryTranscript(project, at) into dir, as
// <session>.jsonl: outside the agents' homes, so that no agent's pending
// transcripts change.
func WriteDiaryTranscript(dir, project string, at time.Time) (Written, error) {
	tr := DiaryTranscript(project, at)
	path := filepath.Join(dir, tr.Session+".jsonl")
	if err := os.MkdirAll(dir, memdir.DirPerm); err != nil {
		return Written{}, err
	}
	return Written{Agent: tr.Agent, Path: path}, atomicfile.WriteFile(path, tr.Data, 0o600)
}

// WriteClaudeMD writes the example project's CLAUDE.md into the sandbox's
// project and returns its path.
func (s Sandbox) WriteClaudeMD() (string, error) {
	path := filepath.Join(s.Project, "CLAUDE.md")
	return path, atomicfile.WriteFile(path, claudeMD, 0o644)
}
