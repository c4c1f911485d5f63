package workspace

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/claims"
	"github.com/memdir/memdir/internal/safefile"
)

// symbolName is what a symbol claim is searched for by: its last name
// (Save for Store.Save()).
func symbolName(text string) string {
	name := strings.TrimSuffix(text, "()")
	return name[strings.LastIndexByte(name, '.')+1:]
}

// prefetch looks up every symbol and flag of cls that check would search
// for, in one search per kind (whole words, and flags anywhere) instead
// of one per claim: one git grep each, or one walk of the files outside
// git. What it could not decide is left to check.
func (c *claimChecker) prefetch(ctx context.Context, cls []claims.Claim) {
	words, subs := map[string]bool{}, map[string]bool{}
	for _, cl := range cls {
		switch {
		case cl.Negated:
		case cl.Kind == claims.Symbol:
			words[symbolName(cl.Text)] = true
		case cl.Kind == claims.Flag && (cl.Command == "" || c.ownCommand(cl.Command, cl.Text)):
			subs[cl.Text] = true
			if n := strings.TrimLeft(cl.Text, "-"); len(n) >= 3 {
				words[n] = true // check looks for it too when the flag is missing
			}
		}
	}
	delete(words, "")
	delete(subs, "")
	if c.found == nil {
		c.found = map[searchKey]bool{}
	}
	if !c.git {
		c.walkFor(ctx, words, subs)
		return
	}
	c.grepAll(ctx, slices.Sorted(maps.Keys(words)), true)
	c.grepAll(ctx, slices.Sorted(maps.Keys(subs)), false)
}

// grepAll runs one git grep for all of pats, printing each match (-o), and
// records each pattern found or not. A pattern git grep may have hidden
// under a longer match that overlaps it (it prints the earliest, longest
// one) is left to check.
func (c *claimChecker) grepAll(ctx context.Context, pats []string, word bool) {
	if len(pats) == 0 {
		return
	}
	args := []string{"grep", "-I", "-F", "-o", "-h", "--no-color", "--untracked"}
	if word {
		args = append(args, "-w")
	}
	args = append(args, "-f", "-", "--", ".")
	if c.skip != "" {
		args = append(args, ":(exclude)"+c.skip)
	}
	out, code, err := c.runGitInput(ctx, strings.Join(pats, "\n")+"\n", args...)
	if err != nil || code != 0 && code != 1 {
		return // check searches claim by claim
	}
	printed := map[string]bool{}
	for line := range strings.Lines(string(out)) {
		printed[strings.TrimRight(line, "\r\n")] = true
	}
	for _, p := range pats {
		switch {
		case printed[p]:
			c.found[searchKey{p, word}] = true
		case inAnyMatch(printed, p, word):
			c.found[searchKey{p, word}] = true
		case !overlapsAnyMatch(printed, p, word):
			c.found[searchKey{p, word}] = false
		}
	}
}

// inAnyMatch reports whether p occurs within a printed match.
func inAnyMatch(printed map[string]bool, p string, word bool) bool {
	for m := range printed {
		if len(m) > len(p) && containsWord([]byte(m), p, word) {
			return true
		}
	}
	return false
}

// overlapsAnyMatch reports whether a printed match ends with a start of p
// (a whole word's start, for a word): p may begin inside it, where git
// grep did not look for it.
func overlapsAnyMatch(printed map[string]bool, p string, word bool) bool {
	for m := range printed {
		for k := 1; k < len(m); k++ {
			if (!word || !isWordByte(m[k-1])) && strings.HasPrefix(p, m[k:]) {
				return true
			}
		}
	}
	return false
}

// walkFor reads the project's files once, looking for all words (whole)
// and subs (anywhere) at once, until all are found.
func (c *claimChecker) walkFor(ctx context.Context, words, subs map[string]bool) {
	type want struct {
		s    string
		word bool
	}
	var pending []want
	for w := range words {
		pending = append(pending, want{w, true})
	}
	for s := range subs {
		pending = append(pending, want{s, false})
	}
	for _, f := range c.projectFiles(ctx) {
		if len(pending) == 0 || ctx.Err() != nil {
			break
		}
		b, err := safefile.ReadFile(filepath.Join(c.root, filepath.FromSlash(f)), verifyMaxFileSize)
		if err != nil {
			continue
		}
		pending = slices.DeleteFunc(pending, func(w want) bool {
			if containsWord(b, w.s, w.word) {
				c.found[searchKey(w)] = true
				return true
			}
			return false
		})
	}
	if ctx.Err() != nil {
		return // undecided: check searches again
	}
	for _, w := range pending {
		c.found[searchKey(w)] = false
	}
}
