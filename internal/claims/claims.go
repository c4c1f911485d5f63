// Package claims finds what a memory names that the project can check: file
// paths, symbols, command-line flags, commands, packages and URLs. A memory
// naming one is a claim that it existed when the memory was written. It is
// pure: no I/O.
//
// Code (inside backticks or a fenced block) is read generously: `src/app`,
// `ParseConfig`, `make test --fast` and `go get x` (its packages) are claims
// there; a flag alone, `snake_case`, `camelCase` and `ALL_CAPS` are not.
// Prose is read strictly, so that ordinary sentences name nothing: a path
// needs a code or config extension, a well-known name (go.mod) or a usual
// first folder ("internal/recall", not "web/mobile"), a symbol needs
// parentheses or a qualified name (ParseConfig(), Store.Save), a flag
// counts only after a command ("run go test with -race"), and prose names
// no package. A claim in a clause that forbids or retires it ("never use
// X", "X is gone", "instead of X") is Negated.
package claims

import (
	"strings"
	"sync"
)

// Kind is what a claim names.
type Kind string

// The kinds of claims, each checked its own way by 'memdir verify'.
const (
	Path    Kind = "path"    // a file or folder, relative to the project root
	Symbol  Kind = "symbol"  // a function, type, variable or constant
	Flag    Kind = "flag"    // a command-line flag
	Command Kind = "command" // a program or script, with its subcommand
	Package Kind = "package" // a dependency or an import path
	URL     Kind = "url"     // an http or https address
)

// Claim is one thing a memory names.
type Claim struct {
	Kind Kind
	Text string // the path, symbol, flag, command, package or URL, normalised
	// Command is, for a flag given to a command, the command's program
	// ("go" for go test -race): a flag of a tool the project does not own
	// cannot be looked up in the project.
	Command string
	// Negated is set for a claim named as something not to use ("never
	// use `time.Sleep`", "X is gone", "instead of X"): that it is absent
	// proves nothing, so it is not checked.
	Negated bool
}

// Find returns the claims text makes, in the order they first appear, each
// once.
func Find(text string) []Claim {
	var f finder
	inFence := false
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence {
			f.commandLine(strings.TrimPrefix(trimmed, "$ "))
			continue
		}
		for _, seg := range segments(line) {
			f.neg = seg.neg
			f.line(seg.text)
		}
		f.neg = false
	}
	return f.out
}

// Classify says what a single reference (a memory's refs entry) names.
// Anything that is no path, flag, command, package or URL is a symbol.
func Classify(ref string) Kind {
	ref = strings.TrimSpace(ref)
	switch {
	case isURL(ref):
		return URL
	case isFlag(ref):
		return Flag
	case strings.ContainsAny(ref, " \t"):
		var f finder
		f.commandLine(ref)
		if len(f.out) > 0 && f.out[0].Kind == Command {
			return Command
		}
		return Symbol
	case isImportPath(ref):
		return Package
	case binaries.has(ref):
		return Command
	}
	if _, ok := PathOf(ref); ok {
		return Path
	}
	return Symbol
}

// PathOf tells a file reference from a symbol and returns the file's path
// without a leading "./" and a ":12", ":12:3" or "#L12-L20" position. A
// path has a known file extension or name, or a separator and no dot in
// its last element ("internal/recall", "scripts/deploy"); "recall.Select",
// "os.Getenv" and "internal/recall.Select" are symbols, URLs and import
// paths ("github.com/x/y") are not paths, and neither is an absolute path
// (it names no file of the project).
func PathOf(ref string) (string, bool) {
	if ref == "" || strings.ContainsAny(ref, " \t()`'\"<>|*?") || isURL(ref) || domainPath(ref) ||
		strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, "-") || strings.Contains(ref, "...") ||
		len(ref) > 1 && ref[1] == ':' {
		return "", false
	}
	if i := strings.Index(ref, "#L"); i > 0 {
		ref = ref[:i]
	}
	for {
		i := strings.LastIndexByte(ref, ':')
		if i <= 0 || i == len(ref)-1 || strings.Trim(ref[i+1:], "0123456789") != "" {
			break
		}
		ref = ref[:i]
	}
	for strings.HasPrefix(ref, "./") {
		ref = ref[2:]
	}
	ref = strings.TrimSuffix(ref, "/")
	if ref == "" || ref == "." || strings.ContainsAny(ref, ":#@=") {
		return "", false
	}
	base := ref[strings.LastIndexByte(ref, '/')+1:]
	if base == "" || allDigitsOrDots(ref) {
		return "", false
	}
	stem, ext, dotted := cutLast(base, ".")
	switch {
	case fileNames.has(strings.ToLower(base)):
		return ref, true
	case dotted && fileExts.has(strings.ToLower(ext)) && stem != "" && !brands.has(strings.ToLower(base)) &&
		(stem[0] != '_' || strings.HasPrefix(stem, "__")): // _test.go is a suffix, __init__.py a file

		return ref, true
	case dotted && stem == "" && strings.Contains(ref, "/"): // .github/workflows, config/.env
		return ref, true
	case dotted && stem == "" && dotFiles.has(base):
		return ref, true
	case strings.Contains(ref, "/") && !dotted:
		return ref, true
	}
	return "", false
}

// finder collects claims, each once.
type finder struct {
	out  []Claim
	seen map[Claim]int // kind and text: index in out
	neg  bool          // the text read now is negated
}

func (f *finder) add(k Kind, text, command string) {
	key := Claim{Kind: k, Text: text}
	if text == "" {
		return
	}
	if i, ok := f.seen[key]; ok {
		if !f.neg {
			f.out[i].Negated = false // named plainly elsewhere: checked
		}
		return
	}
	if f.seen == nil {
		f.seen = map[Claim]int{}
	}
	f.seen[key] = len(f.out)
	f.out = append(f.out, Claim{Kind: k, Text: text, Command: command, Negated: f.neg})
}

// line reads one line of prose, with its code spans.
func (f *finder) line(s string) {
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			f.prose(s)
			return
		}
		n := 1
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		fence := s[i : i+n]
		j := strings.Index(s[i+n:], fence)
		if j < 0 {
			f.prose(s)
			return
		}
		f.prose(s[:i])
		f.code(strings.TrimSpace(s[i+n : i+n+j]))
		s = s[i+n+j+n:]
	}
}

// code reads a code span.
func (f *finder) code(s string) {
	switch {
	case s == "":
	case isURL(s):
		f.add(URL, trimURL(s), "")
	case strings.ContainsAny(s, " \t"):
		if !f.commandLine(s) {
			if sym, ok := symbolOf(s, true); ok {
				f.add(Symbol, sym, "")
			}
		}
	case isFlag(s):
		// A flag alone names no command: nothing to look it up in.
	case isImportPath(s):
		f.add(Package, s, "")
	case binaries.has(s):
		f.add(Command, s, "")
	default:
		if p, ok := PathOf(s); ok {
			f.add(Path, p, "")
		} else if sym, ok := symbolOf(s, true); ok {
			f.add(Symbol, sym, "")
		}
	}
}

// commandLine reads s as a shell command and reports whether it was one:
// a known program, a script, or a word followed by a flag.
func (f *finder) commandLine(s string) bool {
	words := strings.Fields(s)
	for len(words) > 0 && (strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-") || words[0] == "sudo" || words[0] == "$") {
		words = words[1:] // FOO=bar, sudo
	}
	if len(words) == 0 {
		return false
	}
	prog := words[0]
	script := isScript(prog)
	switch {
	case script, binaries.has(prog):
	case isWord(prog) && len(words) > 1 && isFlag(words[1]):
	default:
		return false
	}
	args := words[1:]
	name := prog
	if !script && len(args) > 0 && isWord(args[0]) {
		switch {
		case runners.has(prog) && args[0] == "run" && len(args) > 1 && isWord(args[1]):
			name = prog + " run " + args[1]
		case !pathLike(args[0]):
			name = prog + " " + args[0]
		}
	}
	f.add(Command, name, "")
	installs := len(args) > 0 && installers.has(prog+" "+args[0])
	for _, a := range args {
		if globalFlags.has(a) {
			installs = false // installed for the user, not into the project
		}
	}
	for i, a := range args {
		a = strings.Trim(a, `"'`)
		switch {
		case a == "&&" || a == "||" || a == "|" || a == ";":
			f.commandLine(strings.Join(args[i+1:], " "))
			return true
		case isFlag(a):
			f.add(Flag, flagName(a), prog)
		case installs && i > 0 && !strings.HasPrefix(a, "."):
			f.add(Package, packageName(a), "")
		case isURL(a):
			f.add(URL, trimURL(a), "")
		default:
			if p, ok := PathOf(a); ok && (strings.Contains(a, "/") || strings.Contains(a, ".")) {
				f.add(Path, p, "")
			}
		}
	}
	return true
}

// prose reads text outside code.
func (f *finder) prose(s string) {
	words := strings.Fields(s)
	lastProg := -10 // index of the last program named, for its flags
	for i := 0; i < len(words); i++ {
		w := words[i]
		if isURL(strings.TrimLeft(w, "(<[\"'")) {
			f.add(URL, trimURL(strings.TrimLeft(w, "(<[\"'")), "")
			continue
		}
		end := strings.ContainsAny(w[len(w)-1:], ".;:!?") && !strings.HasSuffix(w, "...")
		call := strings.HasSuffix(strings.TrimRight(w, ".,;:!?\"'"), "()")
		w = trimPunct(w)
		switch {
		case w == "":
		case binaries.has(w) && i+1 < len(words):
			lastProg = i // prose names no package: "npm install after pulling"
		case isFlag(w) && i-lastProg <= 4:
			f.add(Flag, flagName(w), trimPunct(words[max(lastProg, 0)]))
			lastProg = i
		case isImportPath(w):
			f.add(Package, w, "")
		case call:
			if sym, ok := symbolOf(w+"()", false); ok {
				f.add(Symbol, sym, "")
			}
		default:
			if p, ok := PathOf(w); ok && strictPath(w, p) {
				f.add(Path, p, "")
				if isScript(w) {
					lastProg = i
				}
			} else if sym, ok := symbolOf(w, false); ok {
				f.add(Symbol, sym, "")
			}
		}
		if end {
			lastProg = -10
		}
	}
}

// strictPath reports whether a path found in prose (the word w, p once
// cleaned) is surely one, where "a.m.", "Day.js", "web/mobile" and
// "dev/staging/prod" are not: a well-known file name (Makefile, go.mod),
// a file name with a code or config extension, or a path with a file
// extension in one of its elements, a leading "./", or a usual source
// folder first ("internal/recall").
func strictPath(w, p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	if proseNames.has(strings.ToLower(base)) || fileNames.has(strings.ToLower(base)) || dotFiles.has(base) {
		return true
	}
	if !strings.Contains(p, "/") {
		stem, ext, ok := cutLast(base, ".")
		if !ok || !proseExts.has(ext) || stem == "" {
			return false
		}
		// Day.js and Moment.js are products; app.js and App.tsx are files.
		return !(ext == "js" && (isUpper(stem[0]) || strings.Contains(stem, ".")))
	}
	if strings.HasPrefix(w, "./") {
		return true
	}
	first, rest, _ := strings.Cut(p, "/")
	if strings.Contains(strings.TrimPrefix(first, "."), ".") {
		return false // a host (wiki.corp/page), not a folder
	}
	if sourceRoots.has(first) && rest != "" {
		return true
	}
	for el := range strings.SplitSeq(p, "/") {
		if stem, ext, ok := cutLast(el, "."); ok && len(ext) > 1 && fileExts.has(strings.ToLower(ext)) && stem != "" || dotFiles.has(el) {
			return true
		}
	}
	return false
}

// symbolOf returns the symbol s names: an identifier called (ParseConfig(),
// Store.Save(ctx)), a qualified name with an upper-case member
// (Store.Save, os.Getenv) and, in code, a CamelCase name of two humps or
// more.
func symbolOf(s string, inCode bool) (string, bool) {
	called := false
	if i := strings.IndexByte(s, '('); i > 0 && strings.HasSuffix(s, ")") {
		s, called = s[:i], true
	}
	if s == "" || !isQualifiedIdent(s) {
		return "", false
	}
	last := s[strings.LastIndexByte(s, '.')+1:]
	switch {
	case called:
		return s, true
	case strings.Contains(s, "."):
		if isUpper(last[0]) && !allUpper(last) || inCode && (isCamel(last) || strings.Contains(last, "_")) {
			return s, true
		}
	case inCode && isUpper(s[0]) && isCamel(s):
		// ParseConfig, HTTPServer; not camelCase, snake_case or ALL_CAPS,
		// which name a convention or an environment variable as often.
		return s, true
	}
	return "", false
}

func isQualifiedIdent(s string) bool {
	for part := range strings.SplitSeq(s, ".") {
		if part == "" || !isIdentStart(part[0]) {
			return false
		}
		for i := 1; i < len(part); i++ {
			if !isIdentStart(part[i]) && (part[i] < '0' || part[i] > '9') {
				return false
			}
		}
	}
	return true
}

// isCamel reports a name with a lower-case letter followed by an upper-case
// one (parseConfig, ParseConfig, HTTPServer's "rS"), not a word (Go, JSON).
func isCamel(s string) bool {
	for i := 1; i < len(s); i++ {
		if isUpper(s[i]) && isLower(s[i-1]) {
			return true
		}
	}
	return false
}

func isIdentStart(c byte) bool { return c == '_' || isUpper(c) || isLower(c) }
func isUpper(c byte) bool      { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool      { return c >= 'a' && c <= 'z' }

func allUpper(s string) bool { return strings.ToUpper(s) == s }

// isWord is a program's or subcommand's name: lower-case letters, digits,
// '-', '_', '.' and ':', starting with a letter.
func isWord(s string) bool {
	if s == "" || !isLower(s[0]) {
		return false
	}
	return strings.Trim(s, "abcdefghijklmnopqrstuvwxyz0123456789-_.:") == ""
}

func isFlag(s string) bool {
	name := strings.TrimLeft(s, "-")
	if d := len(s) - len(name); d == 0 || d > 2 || name == "" {
		return false
	}
	name, _, _ = strings.Cut(name, "=")
	if name == "" || !isLower(name[0]) && !isUpper(name[0]) {
		return false // -1, --, -=
	}
	return strings.Trim(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == ""
}

func flagName(s string) string {
	s, _, _ = strings.Cut(s, "=")
	return s
}

func isScript(s string) bool {
	if strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") {
		return len(s) > 2 && !strings.Contains(s, "...")
	}
	_, ext, ok := cutLast(s[strings.LastIndexByte(s, '/')+1:], ".")
	return ok && strings.Contains(s, "/") && scriptExts.has(ext)
}

func pathLike(s string) bool { return strings.ContainsAny(s, "/.") }

func isURL(s string) bool {
	return strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://")
}

func trimURL(s string) string {
	s = strings.TrimRight(s, ".,;:!?\"'>*_")
	for strings.HasSuffix(s, ")") && strings.Count(s, "(") < strings.Count(s, ")") {
		s = strings.TrimSuffix(s, ")")
	}
	return s
}

// isImportPath reports a Go-style import path on a known code host
// (github.com/x/y, golang.org/x/tools, go.uber.org/zap), not a file.
func isImportPath(s string) bool {
	host, rest, ok := strings.Cut(s, "/")
	return ok && rest != "" && domainPath(s) && (codeHosts.has(host) || strings.HasPrefix(host, "go."))
}

// domainPath reports a path whose first element is a domain
// (grafana.example.com/d/x): a URL without its scheme, or an import path,
// never a file of the project.
func domainPath(s string) bool {
	host, rest, ok := strings.Cut(s, "/")
	if !ok || rest == "" || strings.HasPrefix(host, ".") || strings.ContainsAny(s, " :@") {
		return false
	}
	_, tld, dotted := cutLast(host, ".")
	if !dotted || len(tld) < 2 || len(tld) > 12 || fileExts.has(tld) {
		return false
	}
	return strings.Trim(tld, "abcdefghijklmnopqrstuvwxyz") == ""
}

// packageName drops a version: x@v1.2.0, y==1.0, z>=2 (but keeps a scope:
// @types/node).
func packageName(s string) string {
	if i := strings.LastIndexByte(s, '@'); i > 0 {
		s = s[:i]
	}
	if i := strings.IndexAny(s, "=<>~![;"); i > 0 {
		s = s[:i]
	}
	return s
}

func trimPunct(s string) string {
	s = strings.TrimLeft(s, "(\"'[<*_“‘")
	s = strings.TrimRight(s, ".,;:!?\"')]>*_”’")
	return strings.TrimSuffix(s, "(") // ParseConfig() lost its ')'

}

func allDigitsOrDots(s string) bool {
	return strings.Trim(strings.TrimPrefix(s, "v"), "0123456789./-") == ""
}

func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// set returns the words as a set, built on its first look: every memdir
// process links this package, and a hook never reads a claim.
func set(words string) *wordSet { return &wordSet{words: words} }

type wordSet struct {
	words string
	sep   string // between the words; white space if empty
	once  sync.Once
	m     map[string]bool
}

func (s *wordSet) has(w string) bool {
	s.once.Do(func() {
		s.m = map[string]bool{}
		words := strings.Fields(s.words)
		if s.sep != "" {
			words = strings.Split(s.words, s.sep)
		}
		for _, w := range words {
			s.m[w] = true
		}
	})
	return s.m[w]
}

// fileExts are the extensions that make a word a file.
var fileExts = set(`go mod sum py pyi ipynb js mjs cjs jsx ts tsx vue svelte rs java kt kts scala groovy gradle
	c h cc cpp cxx hpp hh m mm swift rb php cs fs ex exs erl hrl hs ml mli clj cljs dart r jl lua pl pm sh bash zsh fish
	ps1 bat sql graphql proto thrift avsc tf hcl nix md mdx rst txt adoc json jsonl yaml yml toml ini cfg conf env
	lock xml html htm css scss sass less svg png jpg jpeg gif csv tsv parquet zig nim cue star bzl dockerfile makefile
	txtar tmpl gotmpl mk cmake`)

// fileNames are files known by name alone.
var fileNames = set(`makefile gnumakefile dockerfile containerfile justfile gemfile rakefile procfile vagrantfile
	jenkinsfile brewfile pipfile license readme changelog codeowners`)

// dotFiles are names starting with '.' that are files, not a sentence's end.
var dotFiles = set(`.gitignore .gitattributes .dockerignore .editorconfig .npmrc .nvmrc .golangci.yml
	.prettierrc .eslintrc .github .vscode .tool-versions .python-version`)

// .env and .envrc are left out of dotFiles: local files, never committed,
// absent from a fresh clone.

// proseNames are files prose names without a folder or a usual extension.
var proseNames = set(`go.mod go.sum package.json package-lock.json pnpm-lock.yaml yarn.lock cargo.toml cargo.lock
	pyproject.toml requirements.txt tsconfig.json readme.md changelog.md agents.md claude.md`)

// proseExts are the extensions that make a single word of prose a file:
// code and config, never one letter a sentence can end in ("a.m.").
var proseExts = set(`go py ts tsx js jsx rs rb java kt swift c h cpp yml yaml json toml sql sh md`)

// brands end in a file extension but name a product, not a file.
var brands = set(`node.js vue.js next.js nuxt.js react.js express.js three.js d3.js chart.js ember.js backbone.js
	angular.js alpine.js deno.js bun.sh socket.io`)

// sourceRoots are the first folders that make a word with a '/' a path in
// prose ("internal/recall"), where "web/mobile" is not.
var sourceRoots = set(`src internal cmd lib app pkg test tests scripts`)

// scriptExts make a relative path a script when it is run.
var scriptExts = set(`sh bash zsh fish py rb pl js mjs ts ps1 bat`)

// binaries are programs a memory names as commands.
var binaries = set(`make just task go gofmt npm npx pnpm yarn bun deno node python python3 pip pip3 pipx uv
	poetry pytest tox ruff black mypy cargo rustc rustup git gh docker docker-compose podman kubectl helm
	terraform tofu bazel bazelisk gradle gradlew mvn bundle rake rails ruby gem composer php dotnet swift
	flutter dart mix elixir java sbt cmake ninja gcc clang tsc eslint prettier jest vitest playwright
	golangci-lint staticcheck govulncheck goreleaser buf protoc sqlc psql mysql sqlite3 redis-cli aws gcloud az
	curl jq memdir claude codex`)

// codeHosts are the hosts of import paths.
var codeHosts = set(`github.com gitlab.com bitbucket.org codeberg.org golang.org google.golang.org gopkg.in
	k8s.io sigs.k8s.io cloud.google.com honnef.co modernc.org gotest.tools mvdan.cc gitea.com sr.ht`)

// globalFlags install a package for the user, not into the project.
var globalFlags = set(`-g --global --user`)

// runners run a package.json script with "run".
var runners = set(`npm pnpm yarn bun`)

// installers are the commands whose arguments are packages.
var installers = &wordSet{words: "go get|npm install|npm i|npm add|pnpm add|pnpm install|yarn add|bun add|" +
	"pip install|pip3 install|uv add|poetry add|cargo add|composer require", sep: "|"}
