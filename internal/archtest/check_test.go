package archtest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// graph maps a package to the packages of the module it imports (non-test
// code), both relative to the module.
type graph map[string][]string

type layer struct {
	name string
	pkgs []string
}

// rule is one import rule: check returns one message per violation.
type rule struct {
	name, says string
	check      func(g graph) []string
}

// violation is a rule broken by one import (or one package).
type violation struct {
	rule, msg string
}

func (v violation) String() string {
	return fmt.Sprintf("rule %q (%s): %s", v.rule, ruleDoc, v.msg)
}

// check runs every rule over g, in the rules' order, packages sorted.
func check(g graph, rules []rule) []violation {
	var out []violation
	for _, r := range rules {
		for _, m := range r.check(g) {
			out = append(out, violation{r.name, m + "; the rule: " + r.says})
		}
	}
	return out
}

// match reports whether pkg is pattern, or under it for "dir/...".
func match(pattern, pkg string) bool {
	if dir, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == dir || strings.HasPrefix(pkg, dir+"/")
	}
	return pkg == pattern
}

func matchAny(patterns []string, pkg string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool { return match(p, pkg) })
}

// edges calls f for every import of g, in a stable order.
func edges(g graph, f func(from, to string)) {
	for _, from := range slices.Sorted(maps.Keys(g)) {
		for _, to := range slices.Sorted(slices.Values(g[from])) {
			f(from, to)
		}
	}
}

// forbid: no package matching from imports a package matching to.
func forbid(name, says string, from, to []string) rule {
	return rule{name, says, func(g graph) (out []string) {
		edges(g, func(a, b string) {
			if matchAny(from, a) && matchAny(to, b) {
				out = append(out, fmt.Sprintf("%s imports %s", a, b))
			}
		})
		return out
	}}
}

// onlyImports: packages matching from import, of the module, only packages
// matching allowed.
func onlyImports(name, says string, from, allowed []string) rule {
	return rule{name, says, func(g graph) (out []string) {
		edges(g, func(a, b string) {
			if matchAny(from, a) && !matchAny(allowed, b) {
				out = append(out, fmt.Sprintf("%s imports %s", a, b))
			}
		})
		return out
	}}
}

// onlyImportedBy: packages matching pkgs are imported only by packages
// matching importers (none: by tests only).
func onlyImportedBy(name, says string, pkgs, importers []string) rule {
	return rule{name, says, func(g graph) (out []string) {
		edges(g, func(a, b string) {
			if matchAny(pkgs, b) && !matchAny(importers, a) {
				out = append(out, fmt.Sprintf("%s imports %s", a, b))
			}
		})
		return out
	}}
}

// notInDeps: no package matching pkgs is among root's dependencies,
// direct or not; the message names the path that pulls it in.
func notInDeps(name, says, root string, pkgs []string) rule {
	return rule{name, says, func(g graph) (out []string) {
		via := map[string]string{root: ""} // package → the one that first imported it
		queue := []string{root}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, q := range slices.Sorted(slices.Values(g[p])) {
				if _, seen := via[q]; !seen {
					via[q] = p
					queue = append(queue, q)
				}
			}
		}
		for _, p := range slices.Sorted(maps.Keys(via)) {
			if p != root && matchAny(pkgs, p) {
				path := []string{p}
				for q := via[p]; q != ""; q = via[q] {
					path = append(path, q)
				}
				slices.Reverse(path)
				out = append(out, fmt.Sprintf("%s depends on %s (%s)", root, p, strings.Join(path, " → ")))
			}
		}
		return out
	}}
}

// layered: a package imports only packages of its own layer or below, and
// every package, importer or imported, is in a layer.
func layered(name, says string, ls []layer) rule {
	rank := map[string]int{}
	for i, l := range ls {
		for _, p := range l.pkgs {
			rank[p] = i
		}
	}
	layerOf := func(p string) string { return ls[rank[p]].name }
	return rule{name, says, func(g graph) (out []string) {
		unlisted := map[string]bool{}
		for _, p := range slices.Sorted(maps.Keys(g)) {
			if _, ok := rank[p]; !ok {
				unlisted[p] = true
			}
		}
		edges(g, func(a, b string) {
			if _, ok := rank[b]; !ok {
				unlisted[b] = true
				return
			}
			if _, ok := rank[a]; ok && rank[b] < rank[a] {
				out = append(out, fmt.Sprintf("%s (layer %s) imports %s (layer %s, above it)", a, layerOf(a), b, layerOf(b)))
			}
		})
		for _, p := range slices.Sorted(maps.Keys(unlisted)) {
			out = append(out, fmt.Sprintf("%s is in no layer: add it to the layers in internal/archtest/rules_test.go and AGENTS.md", p))
		}
		return out
	}}
}
