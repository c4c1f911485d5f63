package extract

import (
	"path/filepath"
	"strings"
)

// Decision says what to do with a transcript's new messages.
type Decision struct {
	Run     bool   // extract from them
	Advance bool   // move the cursor past them (when not run: they are settled)
	Why     string // for the log when not run
	Turns   int    // user turns of three or more words among them
}

// Decide applies the pipeline's gates to the new messages of a session:
//
//   - mutex: when the agent itself wrote files in the memory folder since
//     the cursor, it has done the work: skip and advance;
//   - at least one new user message of three or more words, else nothing
//     to learn: advance;
//   - throttle: run only once `every` such turns have gathered since the
//     cursor (pending adds turns counted elsewhere); a trailing run, staged
//     while another extraction held the lock, bypasses it.
func Decide(msgs []Message, memoryDir string, pending, every int, trailing bool) Decision {
	for _, m := range msgs {
		if m.SavedMemory {
			return Decision{Advance: true, Why: "the agent wrote its memory itself in this stretch"}
		}
		for _, f := range m.Wrote {
			if within(f, memoryDir) {
				return Decision{Advance: true, Why: "the agent wrote its memory itself in this stretch"}
			}
		}
	}
	turns := 0
	for _, m := range msgs {
		if m.Role == "user" && !m.Meta && len(strings.Fields(m.Text)) >= 3 {
			turns++
		}
	}
	d := Decision{Turns: turns}
	switch {
	case turns == 0:
		d.Advance, d.Why = true, "no new user message of three or more words"
	case !trailing && every > 1 && pending+turns < every:
		d.Why = "throttled: extraction runs every " + itoa(every) + " turns"
	default:
		d.Run, d.Advance = true, true
	}
	return d
}

func within(path, dir string) bool {
	if dir == "" || path == "" {
		return false
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
