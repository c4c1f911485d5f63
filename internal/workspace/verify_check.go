package workspace

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/claims"
	"github.com/memdir/memdir/internal/safefile"
)

// Bounds of verify's look at a project.
const (
	verifyCheckTimeout = 10 * time.Second // one check (one git run)
	verifyMaxFileSize  = 1 << 20          // files searched without git
	verifyMaxFiles     = 20000            // files a walk looks at
	verifyMaxRenames   = 5000             // commits read for renames
)

// Statuses of a claim.
const (
	ClaimOK        = "ok"
	ClaimMissing   = "missing"
	ClaimRenamed   = "renamed"
	ClaimUnchecked = "unchecked"
)

// ClaimResult is one claim checked against the project.
type ClaimResult struct {
	Kind   claims.Kind `json:"kind"`
	Text   string      `json:"text"`
	Status string      `json:"status"`           // ok, missing, renamed or unchecked
	Reason string      `json:"reason,omitempty"` // why missing or unchecked, in words
	To     string      `json:"to,omitempty"`     // a renamed path's new path
}

// claimChecker looks claims up in a project as it is now. It never runs a
// shell: git is run with its arguments, under a timeout.
type claimChecker struct {
	root    string
	getenv  func(string) string
	timeout time.Duration
	git     bool   // root is in a git work tree and git runs
	prefix  string // root's path inside the work tree, "" or "sub/dir/"
	skip    string // the memory folder, when inside the root: never searched
	renames map[string]string
	files   []string // the project's files, slash-separated, read once
	filesOK bool
	done    map[claims.Claim]ClaimResult
	found   map[searchKey]bool // what prefetch looked up: found or not
}

// searchKey is one string searched for, as a whole word or anywhere.
type searchKey struct {
	s    string
	word bool
}

func newClaimChecker(ctx context.Context, root, memoryDir string, getenv func(string) string) *claimChecker {
	c := &claimChecker{root: root, getenv: getenv, timeout: verifyCheckTimeout, done: map[claims.Claim]ClaimResult{}}
	if rel, err := filepath.Rel(root, memoryDir); err == nil && rel != "." && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
		c.skip = filepath.ToSlash(rel) // a memory naming LoadCache is no evidence LoadCache exists
	}
	if out, code, err := c.runGit(ctx, "rev-parse", "--show-prefix"); err == nil && code == 0 {
		c.git, c.prefix = true, strings.TrimSpace(string(out))
	}
	return c
}

// runGit runs git in the root, with its own timeout; code is git's exit
// status, err a failure to run it at all.
func (c *claimChecker) runGit(ctx context.Context, args ...string) (out []byte, code int, err error) {
	return c.runGitInput(ctx, "", args...)
}

// runGitInput is runGit with stdin.
func (c *claimChecker) runGitInput(ctx context.Context, stdin string, args ...string) (out []byte, code int, err error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", c.root, "-c", "core.quotepath=off"}, args...)...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	out, err = cmd.Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ctx.Err() == nil {
		return out, ee.ExitCode(), nil
	}
	if err != nil {
		return out, -1, err
	}
	return out, 0, nil
}

// check checks one claim, once per run.
func (c *claimChecker) check(ctx context.Context, cl claims.Claim) ClaimResult {
	key := claims.Claim{Kind: cl.Kind, Text: cl.Text, Command: cl.Command, Negated: cl.Negated}
	if r, ok := c.done[key]; ok {
		return r
	}
	r := ClaimResult{Kind: cl.Kind, Text: cl.Text}
	switch {
	case cl.Negated:
		r.Status, r.Reason = ClaimUnchecked, "named as something not to use"
		c.done[key] = r
		return r
	case cl.Kind == claims.Flag && cl.Command != "" && !c.ownCommand(cl.Command, cl.Text):
		r.Status, r.Reason = ClaimUnchecked, "a flag of "+cl.Command+", not of the project"
		c.done[key] = r
		return r
	}
	switch cl.Kind {
	case claims.Path:
		c.checkPath(ctx, &r)
	case claims.Symbol:
		c.search(ctx, &r, symbolName(cl.Text), true, "symbol "+cl.Text+" is no longer found")
	case claims.Flag:
		c.search(ctx, &r, cl.Text, false, "flag "+cl.Text+" is no longer found")
		if r.Status == ClaimMissing && len(strings.TrimLeft(cl.Text, "-")) >= 3 {
			// Flag libraries name a flag without its dashes ("dry-run").
			c.search(ctx, &r, strings.TrimLeft(cl.Text, "-"), true, r.Reason)
		}
	case claims.Command:
		c.checkCommand(ctx, &r)
	case claims.Package:
		c.checkPackage(&r)
	default:
		r.Status, r.Reason = ClaimUnchecked, "not checked offline"
	}
	c.done[key] = r
	return r
}

// ownCommand reports whether flag, given to prog, is the project's: prog
// is a script of it, make or just (a long flag: -j and -C are make's own),
// or a program it builds (cmd/prog, bin/prog).
func (c *claimChecker) ownCommand(prog, flag string) bool {
	if prog == "make" || prog == "just" {
		return strings.HasPrefix(flag, "--")
	}
	return strings.Contains(prog, "/") || c.exists("cmd/"+prog) || c.exists("bin/"+prog)
}

// inRoot returns the claim's path in the root, or "" when it leads out.
func (c *claimChecker) inRoot(p string) string {
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) {
		return ""
	}
	return p
}

func (c *claimChecker) exists(p string) bool {
	_, err := os.Stat(filepath.Join(c.root, filepath.FromSlash(p)))
	return err == nil
}

func (c *claimChecker) checkPath(ctx context.Context, r *ClaimResult) {
	p := c.inRoot(r.Text)
	switch {
	case p == "":
		r.Status, r.Reason = ClaimUnchecked, "outside the project"
		return
	case c.exists(p):
		r.Status = ClaimOK
		return
	case !strings.Contains(p, "/"):
		// A bare file name ("store.go") names a file anywhere in the project.
		for _, f := range c.projectFiles(ctx) {
			if path.Base(f) == p {
				r.Status = ClaimOK
				return
			}
		}
	}
	switch to := c.renamedTo(ctx, p); {
	case len(to) == 1:
		r.Status, r.To, r.Reason = ClaimRenamed, to[0], r.Text+" was renamed to "+to[0]
		return
	case len(to) > 1:
		// Which of them the memory means is for a person to say: no fix.
		r.Status, r.Reason = ClaimMissing, r.Text+" was split into "+strings.Join(to, ", ")
		return
	}
	r.Status, r.Reason = ClaimMissing, r.Text+" no longer exists"
}

// renamedTo follows the repository's renames from p (a file, a folder or
// a bare file name) to the paths that exist now: none, one, or (a folder
// split in two) several, sorted.
func (c *claimChecker) renamedTo(ctx context.Context, p string) []string {
	if !c.git {
		return nil
	}
	if c.renames == nil {
		c.renames = c.readRenames(ctx)
	}
	found := map[string]bool{}
	c.followRenames(ctx, p, c.prefix+p, 10, found) // a chain of renames, bounded
	out := slices.Sorted(maps.Keys(found))
	return out
}

// followRenames adds to found the existing paths that cur (p's path in
// the repository, or a later name of it) was renamed to.
func (c *claimChecker) followRenames(ctx context.Context, p, cur string, depth int, found map[string]bool) {
	if depth == 0 || len(found) > 10 {
		return
	}
	next := map[string]bool{}
	if to, ok := c.renames[cur]; ok {
		next[to] = true
	}
	if len(next) == 0 && !strings.Contains(p, "/") {
		for from, to := range c.renames {
			if path.Base(from) == cur {
				next[path.Base(to)] = true
			}
		}
	}
	if len(next) == 0 {
		for from, to := range c.renames { // a folder: its files moved together
			if rest, in := strings.CutPrefix(from, cur+"/"); in {
				if dir, ok := strings.CutSuffix(to, "/"+rest); ok {
					next[dir] = true
				}
			}
		}
	}
	for n := range next {
		rel, in := strings.CutPrefix(n, c.prefix)
		switch {
		case !in && strings.Contains(p, "/"):
		case c.exists(rel) || !strings.Contains(p, "/") && slices.ContainsFunc(c.projectFiles(ctx), func(f string) bool { return path.Base(f) == rel }):
			found[rel] = true
		default:
			c.followRenames(ctx, p, n, depth-1, found)
		}
	}
}

// readRenames maps each renamed path to its newest new name, from the
// repository's history (newest commits first).
func (c *claimChecker) readRenames(ctx context.Context) map[string]string {
	m := map[string]string{}
	out, code, err := c.runGit(ctx, "log", "-n", strconv.Itoa(verifyMaxRenames), "--diff-filter=R", "--name-status", "-M", "--format=")
	if err != nil || code != 0 {
		return m
	}
	for line := range strings.Lines(string(out)) {
		f := strings.Split(strings.TrimRight(line, "\r\n"), "\t")
		if len(f) == 3 && strings.HasPrefix(f[0], "R") {
			if _, seen := m[f[1]]; !seen {
				m[f[1]] = f[2]
			}
		}
	}
	return m
}

// search looks for s in the project's files: git grep in a repository,
// a bounded walk elsewhere.
func (c *claimChecker) search(ctx context.Context, r *ClaimResult, s string, word bool, missing string) {
	if s == "" {
		r.Status, r.Reason = ClaimUnchecked, "nothing to look for"
		return
	}
	if found, ok := c.found[searchKey{s, word}]; ok {
		if found {
			r.Status, r.Reason = ClaimOK, ""
		} else {
			r.Status, r.Reason = ClaimMissing, missing
		}
		return
	}
	if c.git {
		args := []string{"grep", "-q", "-I", "-F", "--untracked"}
		if word {
			args = append(args, "-w")
		}
		args = append(args, "-e", s, "--", ".")
		if c.skip != "" {
			args = append(args, ":(exclude)"+c.skip)
		}
		_, code, err := c.runGit(ctx, args...)
		switch {
		case err != nil:
			r.Status, r.Reason = ClaimUnchecked, "git grep failed: "+err.Error()
		case code == 0:
			r.Status, r.Reason = ClaimOK, ""
		case code == 1:
			r.Status, r.Reason = ClaimMissing, missing
		default:
			r.Status, r.Reason = ClaimUnchecked, "git grep failed"
		}
		return
	}
	found := false
	for _, f := range c.projectFiles(ctx) {
		b, err := safefile.ReadFile(filepath.Join(c.root, filepath.FromSlash(f)), verifyMaxFileSize)
		if err == nil && containsWord(b, s, word) {
			found = true
			break
		}
	}
	if found {
		r.Status, r.Reason = ClaimOK, ""
	} else {
		r.Status, r.Reason = ClaimMissing, missing
	}
}

func containsWord(b []byte, s string, word bool) bool {
	for off := 0; ; {
		i := bytes.Index(b[off:], []byte(s))
		if i < 0 {
			return false
		}
		i += off
		if !word || (i == 0 || !isWordByte(b[i-1])) && (i+len(s) == len(b) || !isWordByte(b[i+len(s)])) {
			return true
		}
		off = i + 1
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// projectFiles lists the project's files, slash-separated and relative to
// the root: git's tracked and untracked ones, or a bounded walk skipping
// .git, node_modules, vendor and files over 1 MiB.
func (c *claimChecker) projectFiles(ctx context.Context) []string {
	if c.filesOK {
		return c.files
	}
	c.filesOK = true
	if c.git {
		out, code, err := c.runGit(ctx, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
		if err == nil && code == 0 {
			for f := range strings.SplitSeq(string(out), "\x00") {
				if f != "" && (c.skip == "" || !strings.HasPrefix(f, c.skip+"/")) {
					c.files = append(c.files, f)
				}
			}
			return c.files
		}
	}
	_ = filepath.WalkDir(c.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || ctx.Err() != nil || len(c.files) >= verifyMaxFiles {
			return filepath.SkipDir
		}
		if d.IsDir() {
			switch rel, _ := filepath.Rel(c.root, p); {
			case d.Name() == ".git", d.Name() == "node_modules", d.Name() == "vendor", filepath.ToSlash(rel) == c.skip:
				return filepath.SkipDir
			}
			return nil
		}
		if info, err := d.Info(); err != nil || !info.Mode().IsRegular() || info.Size() > verifyMaxFileSize {
			return nil
		}
		if rel, err := filepath.Rel(c.root, p); err == nil {
			c.files = append(c.files, filepath.ToSlash(rel))
		}
		return nil
	})
	return c.files
}

// checkCommand: a script exists, a make or just target or a package.json
// script is defined, or the program is on PATH (or built by the project).
func (c *claimChecker) checkCommand(ctx context.Context, r *ClaimResult) {
	prog, sub, _ := strings.Cut(r.Text, " ")
	if strings.Contains(prog, "/") {
		pr := ClaimResult{Kind: claims.Path, Text: strings.TrimPrefix(prog, "./")}
		c.checkPath(ctx, &pr)
		r.Status, r.To, r.Reason = pr.Status, pr.To, pr.Reason
		if r.Status == ClaimRenamed {
			r.Text = pr.Text // the fix replaces the path
		}
		return
	}
	r.Status = ClaimOK
	switch {
	case (prog == "make" || prog == "just") && sub != "" && sub != "-C":
		names := map[string][]string{"make": {"Makefile", "makefile", "GNUmakefile"}, "just": {"justfile", "Justfile", ".justfile"}}[prog]
		text, file := c.readFirst(names)
		if file == "" {
			r.Status, r.Reason = ClaimMissing, "there is no "+names[0]+" for "+r.Text
			return
		}
		if prog == "make" {
			text += c.makeIncludes(text, 1, map[string]bool{file: true})
		}
		re := regexp.MustCompile(`(?m)^(?:[^\s:#=][^:#=]*\s)?` + regexp.QuoteMeta(sub) + `(?:\s[^:#=]*)?\s*:`)
		if prog == "just" {
			re = regexp.MustCompile(`(?m)^@?` + regexp.QuoteMeta(sub) + `(?:\s[^:]*)?:`)
		}
		if !re.MatchString(text) {
			r.Status, r.Reason = ClaimMissing, file+" has no target "+sub
		}
	case strings.Contains(" npm pnpm yarn bun ", " "+prog+" ") && sub != "":
		script := strings.TrimPrefix(sub, "run ")
		if script == sub && !strings.Contains(" test start ", " "+sub+" ") {
			c.lookPath(r, prog)
			return
		}
		text, file := c.readFirst([]string{"package.json"})
		var pj struct {
			Scripts map[string]string `json:"scripts"`
		}
		if file == "" || json.Unmarshal([]byte(text), &pj) != nil {
			r.Status, r.Reason = ClaimMissing, "there is no readable package.json for "+r.Text
			return
		}
		if _, ok := pj.Scripts[script]; !ok {
			r.Status, r.Reason = ClaimMissing, "package.json has no script "+script
		}
	default:
		c.lookPath(r, prog)
	}
}

// Bounds of following a Makefile's includes.
const (
	makeMaxDepth    = 3
	makeMaxIncludes = 50
)

// makeIncludes returns the text of the files a Makefile's text includes
// ("include x.mk", "-include mk/*.mk"), relative to the root, followed
// makeMaxDepth deep; read holds the files read so far. A file outside the
// root, or named by a variable, is not read.
func (c *claimChecker) makeIncludes(text string, depth int, read map[string]bool) string {
	if depth > makeMaxDepth {
		return ""
	}
	var b strings.Builder
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "include" && f[0] != "-include" && f[0] != "sinclude" {
			continue
		}
		for _, pat := range f[1:] {
			if strings.HasPrefix(pat, "#") {
				break
			}
			if strings.Contains(pat, "$") || c.inRoot(pat) == "" {
				continue
			}
			matches, _ := filepath.Glob(filepath.Join(c.root, filepath.FromSlash(path.Clean(pat))))
			for _, m := range matches {
				rel, err := filepath.Rel(c.root, m)
				if err != nil || read[rel] || len(read) >= makeMaxIncludes {
					continue
				}
				read[rel] = true
				if inc, err := safefile.ReadFile(m, verifyMaxFileSize); err == nil {
					b.WriteString("\n")
					b.Write(inc)
					b.WriteString(c.makeIncludes(string(inc), depth+1, read))
				}
			}
		}
	}
	return b.String()
}

// lookPath finds prog on the PATH the front end gave, or built by the
// project (cmd/prog, bin/prog).
func (c *claimChecker) lookPath(r *ClaimResult, prog string) {
	for _, p := range []string{"cmd/" + prog, "bin/" + prog} {
		if c.exists(p) {
			return
		}
	}
	exts := []string{""}
	if runtime.GOOS == "windows" {
		exts = []string{".exe", ".cmd", ".bat", ""}
	}
	for dir := range strings.SplitSeq(c.getenv("PATH"), string(os.PathListSeparator)) {
		if dir == "" {
			continue
		}
		for _, e := range exts {
			if fi, err := os.Stat(filepath.Join(dir, prog+e)); err == nil && !fi.IsDir() && (runtime.GOOS == "windows" || fi.Mode()&0o111 != 0) {
				return
			}
		}
	}
	r.Status, r.Reason = ClaimMissing, "command "+prog+" is not on PATH"
}

// readFirst reads the first of names that is a regular file in the root,
// up to 1 MiB.
func (c *claimChecker) readFirst(names []string) (text, file string) {
	for _, n := range names {
		if b, err := safefile.ReadFile(filepath.Join(c.root, n), verifyMaxFileSize); err == nil {
			return string(b), n
		}
	}
	return "", ""
}

// manifests are the files a package is looked up in.
var manifests = []string{"go.mod", "package.json", "requirements.txt", "requirements-dev.txt", "pyproject.toml", "Cargo.toml"}

func (c *claimChecker) checkPackage(r *ClaimResult) {
	name := r.Text
	var seen []string
	for _, m := range manifests {
		text, file := c.readFirst([]string{m})
		if file == "" {
			continue
		}
		seen = append(seen, file)
		if file == "go.mod" {
			if goModHas(text, name, func(dir string) bool { return c.exists(dir) }) {
				r.Status = ClaimOK
				return
			}
			continue
		}
		re := regexp.MustCompile(`(?im)(^|[\s"'\[.])` + regexp.QuoteMeta(name) + `($|[\s"'=<>~!\[\];,:@])`)
		if re.MatchString(text) {
			r.Status = ClaimOK
			return
		}
	}
	if len(seen) == 0 {
		r.Status, r.Reason = ClaimUnchecked, "the project has no manifest (go.mod, package.json, requirements.txt, pyproject.toml, Cargo.toml)"
		return
	}
	r.Status, r.Reason = ClaimMissing, "package "+name+" is not in "+strings.Join(seen, ", ")
}

// goModHas reports whether an import path is the module's own (and its
// folder exists) or under one of its requirements.
func goModHas(gomod, imp string, dirExists func(string) bool) bool {
	for line := range strings.Lines(gomod) {
		f := strings.Fields(strings.TrimSpace(line))
		if len(f) >= 2 && f[0] == "module" {
			mod := strings.Trim(f[1], `"`)
			if imp == mod {
				return true
			}
			if rest, ok := strings.CutPrefix(imp, mod+"/"); ok {
				return dirExists(rest)
			}
			continue
		}
		if len(f) >= 1 && f[0] == "require" {
			f = f[1:]
		}
		if len(f) >= 2 && (imp == f[0] || strings.HasPrefix(imp, f[0]+"/")) {
			return true
		}
	}
	return false
}
