package archtest

// The rules, as data. AGENTS.md ("Layers and import rules") says the same
// in words and draws the layers; TestAgentsMDMatchesLayers checks that its
// diagram lists these packages in these layers. Package paths are relative
// to the module (github.com/memdir/memdir); "cmd/..." matches every
// package under cmd/. Only non-test code is checked: a _test.go file may
// import what it needs.

const ruleDoc = `AGENTS.md, "Layers and import rules"`

// layers, top to bottom: a package may import packages of its own layer
// and of the layers below it, never one above. Every package of the module
// must be in one layer.
//
// internal/claudeinstall spells Claude Code's event names out itself: the
// hook adapter (frontend) is above it.
var layers = []layer{
	{"cmd", []string{"cmd/memdir", "cmd/memdir-bench", "cmd/gencorpus"}},
	{"frontend", []string{"internal/hooks", "internal/mcpserver"}},
	{"helpers", append(append([]string{}, benchHelpers...), testOnly...)},
	{"app", []string{"internal/workspace"}},
	{"domain", []string{"internal/memdir", "internal/snapshot", "internal/sessions", "internal/search", "internal/synthesis",
		"internal/llm", "internal/claudeinstall", "internal/examples", "internal/usage"}},
	{"leaf", []string{"internal/recall", "internal/extract", "internal/learning", "internal/consolidate", "internal/claims", "internal/transcript", "internal/redact",
		"internal/hint", "internal/diary", "internal/patterns", "internal/lazyre", "internal/textclf", "internal/lexicon", "internal/paths", "internal/atomicfile", "internal/lockfile", "internal/safefile"}},
}

var (
	// benchHelpers measure memdir; they never ship in its binary.
	benchHelpers = []string{"internal/locomo", "internal/memgen", "internal/corpus"}
	// testOnly packages are imported by _test.go files only.
	testOnly = []string{"internal/testenv", "internal/llm/llmtest", "internal/archtest"}
	// pure packages do no I/O and read no clock.
	pure = []string{"internal/recall", "internal/extract", "internal/learning", "internal/consolidate", "internal/claims", "internal/transcript", "internal/redact", "internal/hint",
		"internal/diary", "internal/patterns", "internal/lazyre", "internal/textclf", "internal/lexicon"}
)

// ruleStoreImportsNoRanker keeps ranking out of the store: the recall
// snapshot is derived by internal/snapshot over the store's primitives.
var ruleStoreImportsNoRanker = forbid("store-imports-no-ranker",
	"internal/memdir (the store) imports none of recall, snapshot, extract, llm, workspace, hooks, mcpserver, sessions, search",
	[]string{"internal/memdir"},
	[]string{"internal/recall", "internal/snapshot", "internal/extract", "internal/llm", "internal/workspace", "internal/hooks",
		"internal/mcpserver", "internal/sessions", "internal/search"})

var rules = []rule{
	layered("layers", "no package imports a package of a layer above its own; every package is in a layer", layers),
	ruleStoreImportsNoRanker,
	onlyImports("pure-imports-pure",
		"pure packages import, of this module, only pure packages and internal/paths (for its name rules)",
		pure, append([]string{"internal/paths"}, pure...)),
	forbid("internal-imports-no-cmd", "nothing under internal/ imports a package under cmd/",
		[]string{"internal/..."}, []string{"cmd/..."}),
	onlyImportedBy("workspace-importers",
		"internal/workspace is imported only by the front ends: cmd/memdir, cmd/memdir-bench, internal/hooks, internal/mcpserver",
		[]string{"internal/workspace"},
		[]string{"cmd/memdir", "cmd/memdir-bench", "internal/hooks", "internal/mcpserver"}),
	onlyImportedBy("bench-helpers-importers",
		"bench helpers (locomo, memgen, corpus) are imported only by cmd/memdir-bench and cmd/gencorpus",
		benchHelpers, []string{"cmd/memdir-bench", "cmd/gencorpus"}),
	onlyImportedBy("test-only", "internal/testenv, internal/llm/llmtest and internal/archtest are imported by tests only",
		testOnly, nil),
	notInDeps("release-binary", "the memdir binary (go list -deps ./cmd/memdir) holds no bench helper and no test helper",
		"cmd/memdir", append(append([]string{}, benchHelpers...), testOnly...)),
}
