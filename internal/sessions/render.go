package sessions

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/transcript"
)

var (
	dayRule     = strings.Repeat("=", 70)
	sessionRule = strings.Repeat("─", 70)
)

// WriteText renders days as the readable text 'memdir transcripts extract'
// prints: a banner per day, a header per session, then the conversation in
// order, each tool call on one line and failed tool results flagged. Times
// are shown in loc.
func WriteText(w io.Writer, days []Day, loc *time.Location) error {
	bw := bufio.NewWriter(w)
	for i, d := range days {
		if i > 0 {
			bw.WriteString("\n")
		}
		fmt.Fprintf(bw, "%s\nDAY: %s (%s, %s)\n%s\n", dayRule, d.Date,
			Plural(len(d.Sessions), "session"), Plural(d.Messages, "message"), dayRule)
		for _, s := range d.Sessions {
			writeSession(bw, s, loc)
		}
	}
	return bw.Flush()
}

func writeSession(bw *bufio.Writer, s DaySession, loc *time.Location) {
	fmt.Fprintf(bw, "\n%s\nSession: %s", sessionRule, cmp.Or(s.SessionID, filepath.Base(s.Path)))
	if s.Agent != "" {
		fmt.Fprintf(bw, " (subagent %s)", s.Agent)
	}
	bw.WriteString("\n")
	var facts []string
	if s.CWD != "" {
		facts = append(facts, "project: "+s.CWD)
	}
	if s.Branch != "" {
		facts = append(facts, "branch: "+s.Branch)
	}
	first, last := s.Messages[0].Timestamp, s.Messages[len(s.Messages)-1].Timestamp
	if !first.IsZero() {
		facts = append(facts, fmt.Sprintf("time: %s–%s", first.In(loc).Format("15:04"), last.In(loc).Format("15:04")))
	}
	facts = append(facts, "agent: "+string(s.Dialect))
	fmt.Fprintf(bw, "%s\n%s\n", strings.Join(facts, " · "), sessionRule)
	assistant := "[CLAUDE]"
	if s.Dialect == transcript.Codex {
		assistant = "[CODEX]"
	}
	for _, m := range s.Messages {
		label := "[USER]"
		if m.Role == "assistant" {
			label = assistant
		}
		if m.Sidechain {
			label += " (sidechain)"
		}
		fmt.Fprintf(bw, "\n%s", label)
		if !m.Timestamp.IsZero() {
			fmt.Fprintf(bw, " %s", m.Timestamp.In(loc).Format("15:04"))
		}
		bw.WriteString("\n")
		if text := strings.TrimSpace(m.Text); text != "" {
			fmt.Fprintf(bw, "%s\n", text)
		}
		for _, t := range m.Tools {
			switch {
			case t.Name != "result":
				fmt.Fprintf(bw, "  → %s: %s\n", t.Name, t.Summary)
			case t.IsError:
				fmt.Fprintf(bw, "  ✗ failed: %s\n", t.Summary)
			}
		}
	}
}

// Plural writes n with word, made plural with s unless n is 1.
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
