package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// initbudget TOTAL EACH reads the last command's stderr, as
// GODEBUG=inittrace=1 writes it ("init PKG @T ms, C ms clock, B bytes, N
// allocs"), and fails when memdir's own packages allocated more than TOTAL
// bytes in their initialisers, or one of them more than EACH. Bytes, not
// clock time: they are the same on a loaded machine.
func cmdInitbudget(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: initbudget TOTAL EACH")
	}
	total, err1 := strconv.Atoi(args[0])
	each, err2 := strconv.Atoi(args[1])
	if err1 != nil || err2 != nil {
		ts.Fatalf("initbudget: TOTAL and EACH are byte counts")
	}
	sum, seen, over := 0, 0, []string{}
	for line := range strings.SplitSeq(ts.ReadFile("stderr"), "\n") {
		f := strings.Fields(line)
		if len(f) < 11 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		seen++
		if !strings.HasPrefix(f[1], "github.com/memdir/memdir/") {
			continue
		}
		b, err := strconv.Atoi(f[7])
		if err != nil {
			ts.Fatalf("initbudget: cannot read %q", line)
		}
		sum += b
		if b > each {
			over = append(over, fmt.Sprintf("%s %d bytes", f[1], b))
		}
	}
	if seen == 0 {
		ts.Fatalf("initbudget: no inittrace lines in stderr (is GODEBUG=inittrace=1 set?)")
	}
	ts.Logf("memdir's initialisers allocated %d bytes", sum)
	if sum > total || len(over) > 0 {
		ts.Fatalf("memdir's initialisers allocated %d bytes (budget %d); over %d each: %s\n"+
			"build what a package needs on first use (internal/lazyre, sync.OnceValue)", sum, total, each, strings.Join(over, "; "))
	}
}
