package patterns

// Weights are the engine's knobs besides the threshold. DefaultWeights were
// chosen by sweeping them on the two tuning halves (testdata/tune and
// testdata/tune2) only (`go run ./cmd/memdir-bench patterns --sweep`);
// docs/benchmarks.md has the held-back halves' scores.
type Weights struct {
	// Concept weighs a concept of the lexicon a line names; Area the field
	// the concept belongs to (time and dates, testing, caching…).
	Concept float64 `json:"concept"`
	Area    float64 `json:"area"`
	// Singleton scales, in a line's length, the features no other diary
	// has: they cannot tie two tasks together.
	Singleton float64 `json:"singleton"`
	// Rare scales a feature found in fewer diaries than a pattern needs.
	Rare float64 `json:"rare"`
	// TopK is how many of its strongest features a line is compared by;
	// the rest count, at Drop, in its length only.
	TopK int     `json:"top_k"`
	Drop float64 `json:"drop"`
}

// DefaultWeights are the weights Find uses when Options.Weights is nil.
var DefaultWeights = Weights{Concept: 0.5, Area: 0, Singleton: 0.5, Rare: 0.5, TopK: 8, Drop: 0.5}
