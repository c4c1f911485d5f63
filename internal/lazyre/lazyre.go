// Package lazyre holds regular expressions compiled on their first use, not
// at start-up, as the Go command's internal/lazyregexp does.
//
// Go runs every linked package's variable initialisers before main, so a
// package-level regexp.MustCompile costs every memdir process, and a hook
// starts one per prompt that uses few of them. A package-level lazyre.New
// costs one small allocation until a method is called.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a *regexp.Regexp compiled on first use. It is safe for
// concurrent use, as a compiled regexp is.
type Regexp struct {
	pattern string
	once    sync.Once
	rx      *regexp.Regexp
}

// New returns pattern's Regexp, to be compiled on its first use. It is for
// package-level variables: each one is kept in a list that All returns, so
// that one test can compile them all (a pattern that does not compile
// panics on first use, where regexp.MustCompile would have at start-up).
func New(pattern string) *Regexp {
	r := &Regexp{pattern: pattern}
	mu.Lock()
	all = append(all, r)
	mu.Unlock()
	return r
}

var (
	mu  sync.Mutex
	all = make([]*Regexp, 0, 384) // memdir declares about 300: no growth, no copy, at start-up
)

// All returns every Regexp New made so far, compiled or not.
func All() []*Regexp {
	mu.Lock()
	defer mu.Unlock()
	return append([]*Regexp(nil), all...)
}

// Re compiles the pattern if it has not been, and returns it.
func (r *Regexp) Re() *regexp.Regexp {
	r.once.Do(func() { r.rx = regexp.MustCompile(r.pattern) })
	return r.rx
}

// String returns the source text, without compiling it.
func (r *Regexp) String() string { return r.pattern }

func (r *Regexp) MatchString(s string) bool                  { return r.Re().MatchString(s) }
func (r *Regexp) Match(b []byte) bool                        { return r.Re().Match(b) }
func (r *Regexp) FindString(s string) string                 { return r.Re().FindString(s) }
func (r *Regexp) FindStringIndex(s string) []int             { return r.Re().FindStringIndex(s) }
func (r *Regexp) FindStringSubmatch(s string) []string       { return r.Re().FindStringSubmatch(s) }
func (r *Regexp) FindStringSubmatchIndex(s string) []int     { return r.Re().FindStringSubmatchIndex(s) }
func (r *Regexp) FindAllString(s string, n int) []string     { return r.Re().FindAllString(s, n) }
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int { return r.Re().FindAllStringIndex(s, n) }
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Re().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Re().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) ReplaceAllString(src, repl string) string { return r.Re().ReplaceAllString(src, repl) }
func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return r.Re().ReplaceAllLiteralString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Re().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) Split(s string, n int) []string { return r.Re().Split(s, n) }
func (r *Regexp) SubexpIndex(name string) int    { return r.Re().SubexpIndex(name) }
func (r *Regexp) SubexpNames() []string          { return r.Re().SubexpNames() }
func (r *Regexp) NumSubexp() int                 { return r.Re().NumSubexp() }

func (r *Regexp) FindSubmatch(b []byte) [][]byte { return r.Re().FindSubmatch(b) }
func (r *Regexp) ReplaceAllFunc(src []byte, repl func([]byte) []byte) []byte {
	return r.Re().ReplaceAllFunc(src, repl)
}
