package usage

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
)

// Line is what a fold takes from a line of the recall log (the hook's
// RecallLine: the time, the project root, the files injected).
type Line struct {
	Time    time.Time `json:"time"`
	Project string    `json:"project"`
	Files   []string  `json:"files"`
}

// Log is what a fold needs of the recall log.
type Log struct {
	// Lines are the project's lines newer than the time asked for, in
	// the order read.
	Lines []Line
	// Oldest is the time of the oldest line read, of any project.
	Oldest time.Time
	// Bad counts the lines that could not be read (a torn last line, a
	// line cut by a crash): they are skipped.
	Bad int
}

// ReadLog adds to l the lines of b (a recall log's bytes, JSON lines) of
// project ("": of every project) newer than after. It decodes only those:
// a line's time, which opens it, and its project are checked on its bytes
// first, so a log of many projects and old lines is read at the speed of
// a scan.
func (l *Log) ReadLog(b []byte, project string, after time.Time) {
	needle, _ := json.Marshal(project)
	needle = append([]byte(`"project":`), needle...)
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		t, ok := LineTime(line)
		if !ok {
			l.Bad++
			continue
		}
		if l.Oldest.IsZero() || t.Before(l.Oldest) {
			l.Oldest = t
		}
		if !t.After(after) || (project != "" && !bytes.Contains(line, needle)) {
			continue
		}
		var ln Line
		if err := json.Unmarshal(line, &ln); err != nil {
			l.Bad++
			continue
		}
		if project == "" || ln.Project == project {
			l.Lines = append(l.Lines, ln)
		}
	}
}

// LineTime is the time a recall line opens with ({"time":"…", as the hook
// writes it), or, for a line in another order, its decoded "time"; false
// for a line that is not whole JSON with a time.
func LineTime(line []byte) (time.Time, bool) {
	const open = `{"time":"`
	if rest, ok := bytes.CutPrefix(line, []byte(open)); ok {
		if i := bytes.IndexByte(rest, '"'); i > 0 {
			if t, err := time.Parse(time.RFC3339Nano, string(rest[:i])); err == nil && bytes.HasSuffix(bytes.TrimSpace(line), []byte("}")) {
				return t, true
			}
		}
		return time.Time{}, false
	}
	var v struct {
		Time json.RawMessage `json:"time"`
	}
	if json.Unmarshal(line, &v) != nil {
		return time.Time{}, false
	}
	s, err := strconv.Unquote(string(v.Time))
	if err != nil {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}
