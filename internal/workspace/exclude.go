package workspace

import (
	"path/filepath"
	"strings"
)

// excluded returns the pattern of patterns (settings' exclude) that keeps
// the project at root (or a session run in cwd) out of extraction and
// synthesis, or "". A pattern is a folder — absolute, or under ~/ (home)
// — that holds root or cwd, or else a glob (a relative path too) matched
// against either path or any trailing part of it: its folder name,
// "clients/acme" of /home/me/clients/acme.
func excluded(patterns []string, home, root, cwd string) string {
	for _, p := range patterns {
		pat := strings.TrimSpace(p)
		if rest, ok := strings.CutPrefix(pat, "~/"); ok && home != "" {
			pat = filepath.Join(home, rest)
		}
		if pat == "" {
			continue
		}
		for _, path := range []string{root, cwd} {
			if path == "" {
				continue
			}
			if filepath.IsAbs(pat) && !strings.ContainsAny(pat, "*?[") {
				if rel, err := filepath.Rel(filepath.Clean(pat), path); err == nil && filepath.IsLocal(rel) {
					return p
				}
				continue
			}
			if globPath(pat, path) {
				return p
			}
		}
	}
	return ""
}

// globPath reports whether pat matches path or one of its trailing parts
// ("*/clients/*" matches /home/me/clients/acme by "me/clients/acme";
// "scratch-*" matches /tmp/scratch-1 by its name).
func globPath(pat, path string) bool {
	if ok, _ := filepath.Match(pat, path); ok {
		return true
	}
	parts := strings.Split(filepath.ToSlash(path), "/")
	for i := range parts {
		if ok, _ := filepath.Match(filepath.ToSlash(pat), strings.Join(parts[i:], "/")); ok {
			return true
		}
	}
	return false
}
