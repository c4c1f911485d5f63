package paths

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

// maxKeyLen is where Claude Code cuts a sanitised folder name (MTe).
const maxKeyLen = 200

// Sanitize turns a project path into Claude Code's folder name for it,
// exactly as Claude Code 2.1 does: every UTF-16 code unit that is not an
// ASCII letter or digit becomes '-' (so a character outside the BMP becomes
// "--"); a result longer than 200 units is cut to 200 and followed by '-'
// and the base-36 absolute value of a Java-style 32-bit hash of the original
// path. Pure.
//
//	Sanitize("/home/user/ccp3") == "-home-user-ccp3"
func Sanitize(path string) string {
	units := utf16.Encode([]rune(path))
	out := make([]byte, len(units))
	for i, u := range units {
		if u < 0x80 && (u >= 'a' && u <= 'z' || u >= 'A' && u <= 'Z' || u >= '0' && u <= '9') {
			out[i] = byte(u)
		} else {
			out[i] = '-'
		}
	}
	if len(out) <= maxKeyLen {
		return string(out)
	}
	return string(out[:maxKeyLen]) + "-" + strconv.FormatInt(abs64(javaHash(units)), 36)
}

// javaHash is h = (h<<5) - h + unit, wrapping at 32 bits, over UTF-16 units.
func javaHash(units []uint16) int32 {
	var h int32
	for _, u := range units {
		h = h<<5 - h + int32(u)
	}
	return h
}

// abs64 takes the absolute value in 64 bits, as JavaScript's Math.abs does
// for the one 32-bit value whose negation overflows.
func abs64(h int32) int64 {
	v := int64(h)
	if v < 0 {
		return -v
	}
	return v
}

// Errors for refused names and overrides. Test with errors.Is.
var (
	ErrInvalidName     = errors.New("invalid memory name")
	ErrInvalidOverride = errors.New("invalid memory folder override")
	// ErrLinkOut says the default memory folder, or a folder above it
	// under the agent home, is a link that leads out of the home.
	ErrLinkOut = errors.New("the memory folder is a link out of your home folder")
	// ErrSettings says Claude Code's user settings.json is not valid
	// JSON: memdir reads the memory folder's override and the off switch
	// from it, as Claude Code does, so it stops rather than guess.
	ErrSettings = errors.New("settings file is not valid JSON")
)

// maxNameLen bounds a memory name or file name typed by a user.
const maxNameLen = 200

// ValidateName checks a memory name or file name given by a user before it
// is joined to the memory folder. It refuses the empty name, NUL and other
// control characters, '/' and '\', a leading '.', any "..", and names over
// 200 bytes, with an error wrapping ErrInvalidName that says which.
func ValidateName(name string) error {
	bad := func(why string) error {
		return fmt.Errorf("%w %q: %s", ErrInvalidName, name, why)
	}
	switch {
	case name == "":
		return bad("empty")
	case len(name) > maxNameLen:
		return bad(fmt.Sprintf("longer than %d bytes", maxNameLen))
	case strings.ContainsAny(name, `/\`):
		return bad("contains a path separator")
	case strings.Contains(name, ".."):
		return bad(`contains ".."`)
	case strings.HasPrefix(name, "."):
		return bad("starts with a dot")
	}
	for _, r := range name {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return bad("contains a control character")
		}
	}
	if vol := filepath.VolumeName(name); vol != "" {
		return bad("contains a drive name")
	}
	return nil
}
