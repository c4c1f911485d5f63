package search

import (
	"bufio"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// WriteText writes r as 'memdir search --transcripts' prints it: on one
// line, when it was said (in loc), the role, project, session and
// transcript line, then the matching line. With context, that heading
// names the transcript, and the lines around the match follow it marked
// with '|', the match with '>', and "--" after them.
func WriteText(w *bufio.Writer, r Result, loc *time.Location, context bool) {
	when := "????-??-?? ??:??"
	if !r.Time.IsZero() {
		when = r.Time.In(loc).Format("2006-01-02 15:04")
	}
	project := filepath.Base(r.Project)
	if r.Project == "" {
		project = "?"
	}
	session := r.SessionID
	if len(session) > 8 {
		session = session[:8]
	}
	if !context {
		fmt.Fprintf(w, "%s %-9s %s %s:%d: %s\n", when, r.Role, project, session, r.Line, strings.TrimSpace(r.Text))
		return
	}
	fmt.Fprintf(w, "%s %s %s %s:%d (%s)\n", when, r.Role, project, session, r.Line, r.Path)
	for _, l := range r.Before {
		fmt.Fprintf(w, "  | %s\n", l)
	}
	fmt.Fprintf(w, "  > %s\n", r.Text)
	for _, l := range r.After {
		fmt.Fprintf(w, "  | %s\n", l)
	}
	w.WriteString("--\n")
}

// SortByTime orders results by the time of their message, earliest first;
// results of the same time (the lines of one message) keep their order.
func SortByTime(rs []Result) {
	slices.SortStableFunc(rs, func(a, b Result) int { return a.Time.Compare(b.Time) })
}
