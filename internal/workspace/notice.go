package workspace

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// SessionsDir is the synthesis folder's folder of each session's
// bookkeeping: what the hooks gave it (SessionName + ".json") and what
// extraction saved from it (NoticeFile).
const SessionsDir = "sessions"

// NoticeExt ends the name of a session's notices file.
const NoticeExt = ".notices"

// MaxNoticeRead bounds the notices file a prompt reads: past it, the file
// is dropped, not read.
const MaxNoticeRead = 64 << 10

// noticeNames is how many memory names a notice line gives before "and N
// more".
const noticeNames = 5

// SessionName names a session's files in SessionsDir: its id when that is
// a plain name (^[A-Za-z0-9_-]{1,100}$), else a hash of it.
func SessionName(id string) string {
	if plainSession(id) {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:12])
}

// plainSession reports whether id matches ^[A-Za-z0-9_-]{1,100}$. Not as a
// regexp: the {1,100} compiles to a hundred copies of the class, 97 KB and
// a millisecond at every start-up.
func plainSession(id string) bool {
	if len(id) == 0 || len(id) > 100 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// NoticeFile is the file, in the synthesis folder, of what extraction
// saved from session and the session has not been told yet.
func NoticeFile(session string) string {
	return SessionsDir + "/" + SessionName(session) + NoticeExt
}

// Notice is one extraction run's line in a session's notices file: the
// memories it saved, updated and superseded ("old.md → new.md").
type Notice struct {
	Time       time.Time `json:"time"`
	Saved      []string  `json:"saved"`
	Updated    []string  `json:"updated"`
	Superseded []string  `json:"superseded"`
}

// notice appends rep's notice for session, which its next prompt gives.
// A notice is a courtesy: a failed append is warned about, never the
// run's failure.
func (x *extractor) notice(session string, rep ExtractReport) {
	if session == "" || !rep.Wrote() {
		return
	}
	b, _ := json.Marshal(Notice{Time: time.Now().UTC(), Saved: rep.Saved, Updated: rep.Updated, Superseded: rep.Superseded})
	if err := x.t.Folder.AppendLine(NoticeFile(session), b); err != nil {
		x.warn(fmt.Errorf("the notice for session %s: %w", session, err))
	}
}

// TakeNotices reads and removes session's notices: given once, never
// again. A missing file is fs.ErrNotExist, at the cost of one failed
// lstat; a torn or malformed line is skipped.
func (t Transcripts) TakeNotices(session string) ([]Notice, error) {
	b, err := t.Folder.Take(NoticeFile(session), MaxNoticeRead)
	if err != nil {
		return nil, err
	}
	var out []Notice
	for line := range strings.Lines(string(b)) {
		var n Notice
		if json.Unmarshal([]byte(line), &n) == nil {
			out = append(out, n)
		}
	}
	return out, nil
}

// NoticeLine is the one line that tells a session what extraction saved
// from it, with the commands that undo it; "" when ns saved nothing. A
// memory named in several notices is named once, as first saved, then
// updated, then superseded; at most noticeNames names are given.
func NoticeLine(ns []Notice) string {
	seen := map[string]bool{}
	var saved, updated, superseded []string
	add := func(to *[]string, names []string) {
		for _, n := range names {
			if n = strings.TrimSpace(n); n != "" && !seen[n] {
				seen[n] = true
				*to = append(*to, n)
			}
		}
	}
	for _, n := range ns {
		add(&saved, n.Saved)
	}
	for _, n := range ns {
		add(&updated, n.Updated)
	}
	for _, n := range ns {
		add(&superseded, n.Superseded)
	}
	room := noticeNames
	var parts []string
	for _, l := range []struct {
		what  string
		names []string
	}{{"new", saved}, {"updated", updated}, {"superseded", superseded}} {
		if len(l.names) == 0 {
			continue
		}
		shown := l.names[:min(room, len(l.names))]
		room -= len(shown)
		list := strings.Join(shown, ", ")
		switch more := len(l.names) - len(shown); {
		case len(shown) == 0:
			list = fmt.Sprint(more)
		case more > 0:
			list += fmt.Sprintf(" and %d more", more)
		}
		parts = append(parts, l.what+": "+list)
	}
	if len(parts) == 0 {
		return ""
	}
	return "memdir saved memories from this session (" + strings.Join(parts, "; ") +
		"); undo with 'memdir forget NAME' for a new one, 'memdir restore NAME' for an updated or superseded one."
}
