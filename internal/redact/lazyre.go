package redact

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regexp compiled on its first use, not at start-up (as the
// Go command's internal/lazyregexp): every memdir process links this
// package, a hook included, and few of them ever redact.
type lazyRegexp struct {
	re func() *regexp.Regexp
}

func lazyRE(pattern string) *lazyRegexp {
	return &lazyRegexp{sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })}
}

func (r *lazyRegexp) MatchString(s string) bool { return r.re().MatchString(s) }
