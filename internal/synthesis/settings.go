package synthesis

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/memdir/memdir/internal/learning"
)

// SettingsFile holds the synthesis settings (decay ages, the synthesis
// interval, how many recent days context and recall read).
const SettingsFile = "settings.json"

// Settings reads SettingsFile over the skill's defaults: a missing file or
// key keeps the default; a key set to zero or less is refused, as is a file
// that is not JSON (with the file's path), so a typo never turns decay off
// or archives everything.
func (f *Folder) Settings() (learning.Settings, error) {
	s := learning.DefaultSettings()
	b, err := f.ReadFile(SettingsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	p, _ := f.Path(SettingsFile)
	if err := json.Unmarshal(b, &s); err != nil {
		return learning.DefaultSettings(), &CorruptError{Path: p, Err: err}
	}
	for _, v := range []struct {
		name string
		n    int
	}{
		{"decay.ageDays", s.Decay.AgeDays},
		{"decay.archiveRetentionDays", s.Decay.ArchiveRetentionDays},
		{"synthesis.intervalHours", s.Synthesis.IntervalHours},
		{"synthesis.contextDays", s.Synthesis.ContextDays},
		{"synthesis.maxFileTokens", s.Synthesis.MaxFileTokens},
		{"synthesis.alwaysLoadedTokens", s.Synthesis.AlwaysLoadedTokens},
		{"dream.minHours", s.Dream.MinHours},
		{"dream.minSessions", s.Dream.MinSessions},
	} {
		if v.n <= 0 {
			return learning.DefaultSettings(), fmt.Errorf("%s: %s is %d; it must be a positive number (remove the key for the default)", p, v.name, v.n)
		}
	}
	return s, nil
}
